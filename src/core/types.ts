/**
 * The core vocabulary shared by ingestion, retrieval, the graph and the adapters.
 * Nothing here knows a chat platform.
 */
import type { FileKind } from './file-kind.ts';
import type { Location } from './location.ts';

/**
 * Which documents a caller may see: `shared`, `slack:<team>`, `slack:<team>:<channel>`,
 * `discord:<guild>` … — built and read only through `ids.ts` (its parts may hold `:`).
 */
export type Scope = string;

/**
 * `slack:<team>:<channel>:<thread_ts>`, `discord:<guild>:<thread>`, `cli:<name>`, `mcp:ask-<uuid>` (one-off) — built and read
 * only through `ids.ts` (its parts may hold `:`).
 */
export type ThreadId = string;

export const sharedScope: Scope = 'shared';

export interface DocumentRecord {
  /** SHA-256 (hex) of the file's bytes. */
  id: string;
  name: string;
  scope: Scope;
  pages: number;
  bytes: number;
  parents: number;
  children: number;
  uploader: string;
  /** ISO 8601. */
  ingestedAt: string;
  /** The dense embedding model the document was indexed with, or null for BM25 only. */
  embeddingModel: string | null;
  /**
   * The BM25 document weights its sparse vectors were computed with (`sparseWeightsVersion` in
   * retrieval/bm25.ts); absent for documents indexed before weights were versioned (that is, version 1).
   */
  sparseWeightsVersion?: number;
  /** Where the file was uploaded (its Slack permalink or Discord message link), when it came from a chat. */
  link?: string;
  /**
   * What the file is (detected from its bytes), which says what its chunks' positions mean (pages,
   * slides, rows; see core/location.ts). The stores always fill it: documents stored before kinds were
   * recorded get theirs from their names (`kindOfOldDocument`).
   */
  kind?: FileKind;
}

export interface ChunkLocation {
  documentId: string;
  documentName: string;
  scope: Scope;
  /** 1-based, inclusive. */
  pageStart: number;
  pageEnd: number;
  /** Headings from the top down: H1 › H2 › H3. */
  sectionPath: string[];
}

export interface ParentChunk extends ChunkLocation {
  id: string;
  text: string;
}

export interface ChildChunk extends ChunkLocation {
  id: string;
  parentId: string;
  text: string;
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

export interface SearchHit {
  child: ChildChunk;
  score: number;
}

export interface Source {
  file: string;
  docId: string;
  /** Positions in the unit of the document's kind (pages, slides, rows); see `location`. */
  pages: [number, number];
  /** The section's headings (H1 › H2), when the answer cited that section by its number. */
  section?: string[];
  /**
   * Where in the file, for documents whose positions are not pages (slides, sheet rows, sections):
   * absent for PDFs, which are cited by `pages` ("p. 12") as ever.
   */
  location?: Location;
  /** The upload the document came from (DocumentRecord.link), for adapters that link the source. */
  link?: string;
}

export interface RetrievedContext {
  parentId: string;
  file: string;
  pages: [number, number];
  sectionPath: string[];
  text: string;
}

/**
 * How a turn ended: an answer from the documents, an answer saying the documents do not cover the
 * question (shown without sources), a clarification question, a stop, or a failure (an error).
 */
export type TurnOutcome =
  | 'answered'
  | 'not-found'
  | 'clarification'
  | 'stopped'
  | 'failed'
  | 'verified'
  | 'handed-off';

/** The outcomes a turn that produced an answer can have (`verified`: a verified answer, no model call). */
export type AnswerOutcome = Extract<TurnOutcome, 'answered' | 'not-found' | 'verified'>;

export interface Answer {
  /** Unique per answer (feedback buttons refer to it). */
  id: string;
  /** `not-found`: the documents do not cover the question; `sources` is then empty. */
  outcome: AnswerOutcome;
  /** Markdown, ending with its sources (for plain renderers: the CLI, logs). */
  markdown: string;
  /** The same Markdown without the sources block, for adapters that show `sources` on their own. */
  body: string;
  /**
   * What the answer rests on. When the answer cites by number, exactly the cited sections, in the
   * order of their numbers ([1] is the first); otherwise the sections that were read.
   */
  sources: Source[];
  /**
   * The body cites its sources by number: [1] is `sources[0]`. Renderers that show `sources` on their
   * own should number them the same way (the Markdown's sources block already does).
   */
  citesByNumber?: boolean;
  subQuestions: string[];
  contexts: RetrievedContext[];
  counts: { toolCalls: number; promptTokens: number; completionTokens: number; llmCalls: number };
  /** Set when this is a verified answer served as it was verified (no model call). */
  verified?: { id: string; by: string; at: string };
}

export type TurnResult =
  | { kind: 'answer'; answer: Answer }
  | { kind: 'clarification'; question: string }
  | { kind: 'stopped'; message: string };

/** The outcome of a turn that ended with a result (a thrown error is `failed`). */
export function outcomeOf(result: TurnResult): TurnOutcome {
  switch (result.kind) {
    case 'answer':
      return result.answer.outcome;
    case 'clarification':
      return 'clarification';
    case 'stopped':
      return 'stopped';
  }
}

export interface TurnRequest {
  threadId: ThreadId;
  /** Fixed by the adapter from where the message came from; the model never chooses these. */
  scopes: readonly Scope[];
  /** Platform user id, for logs and feedback. */
  user: string;
  text: string;
}

/** Progress of one conversational turn, rendered by every adapter in its own way. */
export type ProgressEvent =
  | { type: 'queued'; reason: 'thread-busy' | 'llm-busy'; position?: number }
  | { type: 'summarizing' }
  | { type: 'rewriting' }
  | { type: 'clarifying' }
  | { type: 'planned'; questions: string[] }
  | { type: 'sub-question-started'; index: number; total: number; question: string }
  | { type: 'searching'; index: number; query: string }
  | { type: 'reading'; index: number; parentId: string; section?: string }
  | { type: 'compressing'; index: number }
  | { type: 'falling-back'; index: number }
  | {
      type: 'sub-question-done';
      index: number;
      total: number;
      /** The documents the sub-question's agent read (name, and upload link where it has one). */
      documents?: ReadonlyArray<{ name: string; link?: string }>;
    }
  | { type: 'aggregating' }
  | { type: 'done' };

export type ProgressListener = (event: ProgressEvent) => void;

/** One chat-model call of a turn exactly as it was sent, and its reply (plain JSON, for traces). */
export interface ModelCallRecord {
  /** Which step asked: summarize, rewrite, orchestrator, compress, fallback, aggregate. */
  purpose: string;
  /** ISO 8601, when the call started. */
  at: string;
  milliseconds: number;
  /** Model and sampling options (model, temperature, seed, context window). */
  options: Record<string, unknown>;
  messages: Array<{
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string;
    toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
    name?: string;
  }>;
  /** Function definitions bound to the call. */
  tools?: ReadonlyArray<Record<string, unknown>>;
  /** JSON schema asked for (structured output). */
  format?: Record<string, unknown>;
  reply?: { content: string; toolCalls?: Array<{ name: string; args: Record<string, unknown> }> };
  /** Set when the call failed. */
  error?: string;
}

export interface TurnOptions {
  /** Told of every chat-model call of the turn (e.g. `ragent ask --trace`). */
  onModelCall?: (call: ModelCallRecord) => void;
  /**
   * Told the text of the final answer (or of a fallback) so far, as the model writes it — latest
   * wins; '' takes back what was shown (the reply became a tool call). The turn's result is what
   * counts at the end: it may differ (e.g. the sources block is rebuilt). `kind` says whether the text
   * is an answer or a clarification question (streamed from the rewrite's reply).
   */
  onText?: (textSoFar: string, kind: StreamedTextKind) => void;
  /**
   * The thread's earlier messages (newest last, at most `limit`, the question itself not among them),
   * read once when the bot joins a thread it has no conversation in. May throw: the turn goes on without.
   */
  readThread?: (limit: number) => Promise<ThreadMessage[]>;
}

/** One earlier message of a thread, as the platform read it: plain text, its author's display name. */
export interface ThreadMessage {
  author: string;
  text: string;
  /** Written by the bot itself (its earlier answers): shown to the model as the assistant's. */
  fromBot: boolean;
  /** ISO 8601 time it was posted. */
  at: string;
}

/** What a streamed text is: the final answer (or a fallback), or the clarification question. */
export type StreamedTextKind = 'answer' | 'clarification';

export interface Conversations {
  /** Starts a turn, or resumes the thread's pending clarification with this message. */
  handle(request: TurnRequest, onProgress?: ProgressListener, options?: TurnOptions): Promise<TurnResult>;
  /** Whether the thread has any state (the bot has conversed in it). */
  hasThread(threadId: ThreadId): Promise<boolean>;
  /** Deletes the thread's state (after any turn in flight); a no-op for an unknown thread. */
  forgetThread?(threadId: ThreadId): Promise<void>;
  /** Stop taking turns and wait for the ones in flight. */
  close(): Promise<void>;
}

export interface IngestRequest {
  name: string;
  bytes: Uint8Array;
  scope: Scope;
  uploader: string;
  /** The upload's permalink (Slack file permalink, Discord message link); kept with the document. */
  link?: string;
  /** Ingest again even when these exact bytes are already in the scope (`ragent ingest --force`). */
  force?: boolean;
  /**
   * The web address the document was fetched from (`ragent ingest <url>`): the name is then kept whole
   * (it is the URL, not cut at its slashes) and text is read as Markdown — a fetched page arrives as the
   * Markdown of its main content, so its id (the hash) changes only when that content does.
   */
  url?: string;
  /**
   * Aborts the ingest: the reading at once, the embedding before its next batch; nothing is written.
   * The ingest then fails with INGEST_CANCELLED, or with the abort's reason when that is a RagentError.
   */
  signal?: AbortSignal;
}

export interface IngestProgress {
  stage: 'reading' | 'extracting' | 'chunking' | 'embedding' | 'indexing' | 'done';
  done: number;
  total: number;
  unit: 'pages' | 'chunks';
}

export type IngestProgressListener = (progress: IngestProgress) => void;

export interface IngestReport {
  /** `reindexed`: the same bytes, indexed again because they carried the BM25 weights of an older ragent. */
  status: 'ingested' | 'replaced' | 'unchanged' | 'reindexed';
  document: DocumentRecord;
  /** The id of the older version with the same name that this one replaced. */
  replacedDocumentId?: string;
  seconds: number;
  /** An e-mail's attachments, each ingested as its own document (or why not), in the mail's order. */
  attachments?: AttachmentOutcome[];
}

export type AttachmentOutcome =
  | { name: string; report: IngestReport }
  /** `skipped`: not a supported type; `failed`: refused or broken (the code and message say why). */
  | { name: string; outcome: 'skipped' | 'failed'; code: string; message: string };

export interface RemoveRequest {
  /** A document id (or its unique prefix) or a file name. */
  idOrName: string;
  scope: Scope;
}

export interface MoveRequest {
  /** A document id (or its unique prefix) or a file name, in `from`. */
  idOrName: string;
  from: Scope;
  /** In the same workspace/server as `from`, or `shared`. */
  to: Scope;
}

export interface MoveReport {
  /** The document in its new set, its uploader and upload link kept. */
  document: DocumentRecord;
  from: Scope;
  /** Moved, but what is left of the old copy (no longer searched) is removed later. */
  cleanUpPending: boolean;
}

export interface Ingestion {
  ingest(request: IngestRequest, onProgress?: IngestProgressListener): Promise<IngestReport>;
  listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]>;
  /** The documents of a workspace or server (`place`): its own set's and every one of its channels'. */
  listPlaceDocuments(place: Scope): Promise<DocumentRecord[]>;
  /** Finds a document of the scope by id, id prefix or name; throws DOCUMENT_NOT_FOUND. */
  findDocument(request: RemoveRequest): Promise<DocumentRecord>;
  removeDocument(request: RemoveRequest): Promise<DocumentRecord>;
  /**
   * Moves a document to another set of the same workspace/server (or shared), atomically: searched in
   * exactly one of the two at every moment. Throws DOCUMENT_NOT_FOUND, DOCUMENT_NAME_TAKEN (nothing is
   * replaced) or MOVE_REFUSED (another workspace/server, or the same set).
   */
  moveDocument(request: MoveRequest): Promise<MoveReport>;
}

/** A web address to ingest, and who asked: the operator on the CLI, or someone in a chat. */
export interface UrlIngestRequest {
  url: string;
  scope: Scope;
  uploader: string;
  /** `chat`: private, loopback and link-local addresses are refused (unless in RAGENT_FETCH_ALLOW). */
  origin: 'cli' | 'chat';
  force?: boolean;
  signal?: AbortSignal;
}

/** One page of a crawl: ingested (or unchanged), or why not. */
export type CrawlPageOutcome =
  | { url: string; report: IngestReport }
  | { url: string; code: string; message: string };

export interface CrawlSummary {
  pages: number;
  failed: number;
  fromSitemap: boolean;
  /** `maxPages` stopped the crawl with pages left. */
  truncated: boolean;
}

/** Web pages as documents: one page, a site crawl, or a stored page fetched again. */
export interface WebIngestion {
  /** Fetches the URL and ingests it, named by its address (after redirects) and linked to it. */
  ingestUrl(request: UrlIngestRequest, onProgress?: IngestProgressListener): Promise<IngestReport>;
  /** Crawls the site from `url` (robots.txt honoured), each page its own document. */
  crawl(
    request: UrlIngestRequest & { maxPages: number },
    onPage?: (outcome: CrawlPageOutcome) => void,
  ): Promise<CrawlSummary>;
  /**
   * Fetches one page without ingesting it: its address after redirects and what to ingest (the
   * Markdown of an HTML page's main content, the bytes of another file), for a chat's ingest job.
   */
  fetchPage(
    request: Omit<UrlIngestRequest, 'scope' | 'uploader' | 'force'>,
  ): Promise<{ url: string; bytes: Uint8Array }>;
  /** Fetches a stored web document's address again; `unchanged` unless its content changed. */
  refetch(document: DocumentRecord, signal?: AbortSignal): Promise<IngestReport>;
}

/** Whether a stored document came from the web (`ragent ingest <url>`): named by its own link. */
export function isWebDocument(document: DocumentRecord): boolean {
  return document.link !== undefined && document.link !== '' && /^https?:\/\//.test(document.name);
}

/**
 * A source that is a web page (its name is its own http(s) address): the one outside link a chat
 * source may carry, since the document was fetched from exactly there.
 */
export function isWebPageSource(source: Source): source is Source & { link: string } {
  return (
    source.link !== undefined &&
    source.link === source.file &&
    /^https?:\/\/[^\s<>|]+$/.test(source.link) &&
    URL.canParse(source.link)
  );
}

/** A 👍/👎 on an answer, stored with the thread. */
export interface Feedback {
  threadId: ThreadId;
  answerId: string;
  user: string;
  value: 'up' | 'down';
  at: string;
  /** Why a 👎: picked from a short list after the vote (a 👍 has none). */
  reason?: FeedbackReason;
  /** The user's own words with the reason (for `other`, or to add detail). */
  comment?: string;
}

export type FeedbackReason = 'wrong' | 'outdated' | 'incomplete' | 'not-what-i-asked' | 'other';

/** The reasons a 👎 offers, in the order a chat shows them. */
export const feedbackReasons: readonly FeedbackReason[] = [
  'wrong',
  'outdated',
  'incomplete',
  'not-what-i-asked',
  'other',
];

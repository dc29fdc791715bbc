/**
 * The agent's two tools, built per request with the caller's scopes fixed in a closure: the model
 * chooses only the query, the limit (capped) and the parent id. Results use the design's plain-text
 * blocks and sentinels, so a small model reads them the same way whatever went wrong.
 *
 * Relevance floor: hits whose `SearchHit.score` is below `minRelevance` are dropped before the model
 * sees them, so a search with only weak hits answers NO_RELEVANT_CHUNKS. The score is the retriever's:
 * with BM25 only (RAGENT_EMBEDDINGS=none) it is the BM25 sum over the query's terms (0 upwards, about 2–6
 * per matching term on a typical manual); in hybrid search it is reciprocal-rank fusion, Σ 1/(60 + rank)
 * over the keyword and the vector list, so at most 2/61 ≈ 0.033, and ≤ 1/61 ≈ 0.0164 for a passage only
 * one of the two lists found (when no keyword matches at all, the vector list's cosine similarity, 0–1).
 * Qdrant fuses with its own RRF, the same formula (k = 60 in current Qdrant versions).
 */
import { z } from 'zod';
import type { FileKind } from '../core/file-kind.ts';
import type { ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { describeError } from '../errors.ts';
import type { Retriever } from '../retrieval/chunk-index.ts';
import type { AgentContext } from './state.ts';

export const noRelevantChunks = 'NO_RELEVANT_CHUNKS';
export const noParentDocument = 'NO_PARENT_DOCUMENT';
export const retrievalErrorPrefix = 'RETRIEVAL_ERROR:';
export const alreadyExecuted = 'ALREADY_EXECUTED';

export const searchToolName = 'search_child_chunks';
export const parentToolName = 'retrieve_parent_chunks';

export const defaultSearchLimit = 5;
export const maxSearchLimit = 10;

const searchArguments = z.object({
  query: z.string().trim().min(1, { error: 'query must not be empty' }).max(500),
  limit: z.coerce.number().optional(),
});
const parentArguments = z.object({
  parent_id: z.union([z.string(), z.number()]).transform((value) => String(value).trim()),
});

/** What bindTools sends: OpenAI-style function definitions. */
export const toolDefinitions = [
  {
    type: 'function' as const,
    function: {
      name: searchToolName,
      description:
        'Search the documents for short passages relevant to a query. Returns passages with their Parent ID, file name and pages.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What to look for, in the words the documents would use.' },
          limit: {
            type: 'integer',
            description: `How many passages to return (1–${maxSearchLimit}, default ${defaultSearchLimit}).`,
          },
        },
        required: ['query'],
      },
    },
  },
  {
    type: 'function' as const,
    function: {
      name: parentToolName,
      description: 'Read the whole section (parent chunk) a passage belongs to, by its Parent ID.',
      parameters: {
        type: 'object',
        properties: { parent_id: { type: 'string', description: 'A Parent ID from a search result.' } },
        required: ['parent_id'],
      },
    },
  },
];

export type ToolCallRequest = { name: string; args: Record<string, unknown> };

export interface ToolOutcome {
  content: string;
  /** The retrieval key (`search:<query>` / `parent:<id>`) when the call ran. */
  key?: string;
  contexts: AgentContext[];
  /** For progress: what kind of call this was. */
  progress?: { type: 'searching'; query: string } | { type: 'reading'; parentId: string; section?: string };
}

export interface RetrievalTools {
  /** Validates and runs one call. Never throws: failures come back as text the model can act on. */
  run(call: ToolCallRequest, alreadyDone: ReadonlySet<string>, signal?: AbortSignal): Promise<ToolOutcome>;
  /** The key a call would record, or undefined when its arguments are invalid. */
  keyOf(call: ToolCallRequest): string | undefined;
  /** What a call is about, for progress before it runs. */
  describe(call: ToolCallRequest): ToolOutcome['progress'];
  /**
   * The upload links (those that have one) and kinds of these documents, in the turn's scopes. Never
   * throws: they only decorate the sources (a link, a slide or sheet instead of a page), so a failed or
   * slow lookup leaves them out.
   */
  documentDetails(
    documentIds: readonly string[],
    signal?: AbortSignal,
  ): Promise<Map<string, DocumentDetails>>;
}

export interface DocumentDetails {
  link?: string;
  kind?: FileKind;
}

export interface RetrievalToolsOptions {
  retriever: Retriever;
  /** Fixed by the adapter; the model never sees or chooses them. */
  scopes: readonly Scope[];
  timeoutMs: number;
  /** Hits scoring below this are dropped (0: keep every hit). */
  minRelevance?: number;
}

export function searchKey(query: string): string {
  return `search:${query.trim().toLowerCase().replace(/\s+/g, ' ')}`;
}

export function parentKey(parentId: string): string {
  return `parent:${parentId}`;
}

export function createRetrievalTools(options: RetrievalToolsOptions): RetrievalTools {
  const scopes = Object.freeze([...options.scopes]);
  const floor = options.minRelevance ?? 0;
  // One number per section (parent id) for the whole turn, in the order the agents first see them:
  // the answer cites them as [n], and every sub-question's agent gets the same number for a section.
  const citations = new Map<string, number>();
  const citationOf = (parentId: string) => {
    let citation = citations.get(parentId);
    if (citation === undefined) {
      citation = citations.size + 1;
      citations.set(parentId, citation);
    }
    return citation;
  };

  type Parsed =
    | { kind: 'search'; query: string; limit: number }
    | { kind: 'parent'; parentId: string }
    | { error: string }
    | { unknown: true };
  const parse = (call: ToolCallRequest): Parsed => {
    if (call.name === searchToolName) {
      const parsed = searchArguments.safeParse(call.args);
      if (!parsed.success) return { error: z.prettifyError(parsed.error) };
      const requested = parsed.data.limit;
      const limit =
        requested === undefined || !Number.isFinite(requested)
          ? defaultSearchLimit
          : Math.min(maxSearchLimit, Math.max(1, Math.round(requested)));
      return { kind: 'search', query: parsed.data.query, limit };
    }
    if (call.name === parentToolName) {
      const parsed = parentArguments.safeParse(call.args);
      if (!parsed.success || parsed.data.parent_id === '') {
        return { error: parsed.success ? 'parent_id must not be empty' : z.prettifyError(parsed.error) };
      }
      return { kind: 'parent', parentId: parsed.data.parent_id };
    }
    return { unknown: true };
  };

  const keyOf = (call: ToolCallRequest) => {
    const parsed = parse(call);
    if ('kind' in parsed)
      return parsed.kind === 'search' ? searchKey(parsed.query) : parentKey(parsed.parentId);
    return undefined;
  };

  return {
    keyOf,
    async documentDetails(documentIds, signal) {
      const details = new Map<string, DocumentDetails>();
      if (documentIds.length === 0) return details;
      try {
        const documents = await withTimeout(
          options.retriever.getDocuments(documentIds, scopes),
          options.timeoutMs,
          signal,
        );
        for (const document of documents) {
          details.set(document.id, {
            ...(document.link ? { link: document.link } : {}),
            ...(document.kind ? { kind: document.kind } : {}),
          });
        }
      } catch (error) {
        if (signal?.aborted) throw error;
      }
      return details;
    },
    describe(call) {
      const parsed = parse(call);
      if (!('kind' in parsed)) return undefined;
      return parsed.kind === 'search'
        ? { type: 'searching', query: parsed.query }
        : { type: 'reading', parentId: parsed.parentId };
    },
    async run(call, alreadyDone, signal) {
      const parsed = parse(call);
      if ('unknown' in parsed) {
        return {
          content: `ERROR: unknown tool "${call.name}". The only tools are ${searchToolName}(query, limit) and ${parentToolName}(parent_id).`,
          contexts: [],
        };
      }
      if ('error' in parsed) {
        return { content: `ERROR: invalid arguments for ${call.name}: ${parsed.error}`, contexts: [] };
      }
      const key = parsed.kind === 'search' ? searchKey(parsed.query) : parentKey(parsed.parentId);
      if (alreadyDone.has(key)) {
        return {
          content: `${alreadyExecuted}: this exact call was already made; its result is above or in the research notes. Use another query or write the answer.`,
          contexts: [],
        };
      }
      try {
        if (parsed.kind === 'search') {
          const found = await withTimeout(
            options.retriever.search(parsed.query, { scopes, k: parsed.limit }),
            options.timeoutMs,
            signal,
          );
          const hits = floor > 0 ? found.filter((hit) => hit.score >= floor) : found;
          return {
            key,
            content:
              hits.length === 0
                ? noRelevantChunks
                : hits.map((hit) => formatHit(hit, citationOf(hit.child.parentId))).join('\n\n'),
            contexts: hits.map((hit) => hitContext(hit, citationOf(hit.child.parentId))),
            progress: { type: 'searching', query: parsed.query },
          };
        }
        const parent = await withTimeout(
          options.retriever.getParent(parsed.parentId, scopes),
          options.timeoutMs,
          signal,
        );
        return {
          key,
          content: parent ? formatParent(parent, citationOf(parent.id)) : noParentDocument,
          contexts: parent ? [parentContext(parent, citationOf(parent.id))] : [],
          progress: { type: 'reading', parentId: parsed.parentId, section: parent?.sectionPath.join(' › ') },
        };
      } catch (error) {
        if (signal?.aborted) throw error;
        // No key: a failed call may be retried (it still counts against the budget).
        return { content: `${retrievalErrorPrefix} ${describeError(error)}`, contexts: [] };
      }
    },
  };
}

function pagesOf(location: { pageStart: number; pageEnd: number }): string {
  return location.pageStart === location.pageEnd
    ? `${location.pageStart}`
    : `${location.pageStart}–${location.pageEnd}`;
}

/** A child's text without the heading line it is indexed with (its section path, or the file name). */
export function childContent(child: SearchHit['child']): string {
  const text = child.text.trim();
  const newline = text.indexOf('\n');
  if (newline < 0) return text;
  const first = text.slice(0, newline).trim();
  const heading = child.sectionPath.length > 0 ? child.sectionPath.join(' › ') : child.documentName;
  return first === heading ? text.slice(newline + 1).trim() : text;
}

/** The line that tells the model how to cite a passage (`answerRules` in prompts.ts refers to it). */
export function citationLine(citation: number): string {
  return `Cite as: [${citation}]`;
}

function formatHit(hit: SearchHit, citation: number): string {
  const child = hit.child;
  return [
    citationLine(citation),
    `Parent ID: ${child.parentId}`,
    `File Name: ${child.documentName}`,
    `Pages: ${pagesOf(child)}`,
    ...(child.sectionPath.length ? [`Section: ${child.sectionPath.join(' › ')}`] : []),
    `Content: ${childContent(child)}`,
  ].join('\n');
}

function formatParent(parent: ParentChunk, citation: number): string {
  return [
    citationLine(citation),
    `Parent ID: ${parent.id}`,
    `File Name: ${parent.documentName}`,
    `Pages: ${pagesOf(parent)}`,
    ...(parent.sectionPath.length ? [`Section: ${parent.sectionPath.join(' › ')}`] : []),
    `Content: ${parent.text.trim()}`,
  ].join('\n');
}

function hitContext(hit: SearchHit, citation: number): AgentContext {
  const child = hit.child;
  return {
    citation,
    parentId: child.parentId,
    documentId: child.documentId,
    file: child.documentName,
    pages: [child.pageStart, child.pageEnd],
    sectionPath: child.sectionPath,
    text: childContent(child),
    via: 'search',
  };
}

function parentContext(parent: ParentChunk, citation: number): AgentContext {
  return {
    citation,
    parentId: parent.id,
    documentId: parent.documentId,
    file: parent.documentName,
    pages: [parent.pageStart, parent.pageEnd],
    sectionPath: parent.sectionPath,
    text: parent.text,
    via: 'parent',
  };
}

async function withTimeout<T>(work: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the search took longer than ${timeoutMs} ms`)), timeoutMs);
        if (signal) {
          onAbort = () => reject(signal.reason ?? new Error('aborted'));
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener('abort', onAbort);
  }
}

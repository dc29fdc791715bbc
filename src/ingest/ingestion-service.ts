/**
 * The ingestion service: the one writer of the index. A file is checked by its bytes, extracted,
 * chunked into parents and children, given sparse (BM25) and, when configured, dense vectors, and
 * written with ONE atomic `replaceDocument` call (which also drops an older version of the same name),
 * so a document is searchable whole or not at all. The same bytes again are "unchanged" unless
 * `force` is set (then they are extracted, chunked and embedded again and replace the stored version),
 * or unless the stored version carries the BM25 weights of an older ragent (`sparseWeightsVersion`): then
 * it is indexed again the same way and reported as "reindexed".
 */
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Config } from '../config.ts';
import { placeOfScope } from '../core/ids.ts';
import type { NameLock } from '../core/name-lock.ts';
import type {
  AttachmentOutcome,
  DocumentRecord,
  Ingestion,
  IngestProgressListener,
  IngestReport,
  IngestRequest,
  MoveReport,
  MoveRequest,
  RemoveRequest,
  Scope,
} from '../core/types.ts';
import { sharedScope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { isRagentError, RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { encodeSparseChild, sparseWeightsVersion } from '../retrieval/bm25.ts';
import type { ChunkIndex, Embedder, IndexedChild } from '../retrieval/chunk-index.ts';
import { hasCurrentSparseWeights } from '../retrieval/index-health.ts';
import { chunkDocument } from './chunk.ts';
import { ingestCancelled, tooManyChunks } from './ingest-limits.ts';

/** Why an e-mail's attachment is left out rather than failed. */
const skippedAttachmentCodes: ReadonlySet<string> = new Set(['FILE_UNSUPPORTED', 'IMAGE_NO_TEXT', 'OCR_OFF']);
export interface IngestionDependencies {
  config: Config;
  logger: Logger;
  index: ChunkIndex;
  embedder: Embedder | undefined;
  /**
   * Replicas: one ingest of a given (scope, file name) at a time across them (the composition root
   * passes a PostgreSQL lock). Without it, ingests of one name may overlap (one process: the index
   * writes one version at a time).
   */
  withNameLock?: NameLock;
}

/** Children embedded per progress step (the embedder batches within it). */
const embedStep = 256;
/** Children given BM25 vectors between two turns of the event loop (a few ms each). */
const sparseStep = 256;

export function createIngestion({
  config,
  logger,
  index,
  embedder,
  withNameLock,
}: IngestionDependencies): Ingestion {
  const ingestUnlocked = async (
    request: IngestRequest,
    onProgress: IngestProgressListener = () => {},
  ): Promise<IngestReport> => {
    const started = performance.now();
    const seconds = () => Math.round((performance.now() - started) / 10) / 100;
    const name = documentName(request);
    const { scope, bytes, signal } = request;
    const checkAborted = () => {
      if (signal?.aborted) throw ingestCancelled(name, signal);
    };
    checkAborted();
    // The readers (OCR, office formats, zip and XML parsers) are imported by the first ingest: a bot or
    // a CLI command that never ingests does not load them (about 0.2 s of CPU at every start).
    const [{ detectFileKind }, { extractDocument }] = await Promise.all([
      import('./detect-file-kind.ts'),
      import('./extract-document.ts'),
    ]);
    const kind = detectFileKind(name, bytes, {
      maxFileBytes: config.ingest.maxFileBytes,
      ...(request.url ? { textAs: 'markdown' as const } : {}),
    });
    const id = createHash('sha256').update(bytes).digest('hex');
    const existing = await index.listDocuments([scope]);
    const same = existing.find((document) => document.id === id);
    if (same && !request.force && hasCurrentSparseWeights(same)) {
      onProgress({ stage: 'done', done: same.pages, total: same.pages, unit: 'pages' });
      return { status: 'unchanged', document: same, seconds: seconds() };
    }
    const older = existing.filter((document) => document.name === name || document.id === id);
    if (embedder) {
      // Fail fast (Ollama down, model missing, another model in the index) before the long extraction.
      const [probe] = await embedder.embed([name]);
      await index.ensureEmbedding({ model: embedder.model, dimension: probe?.length ?? null });
    }

    onProgress({ stage: 'reading', done: 0, total: 1, unit: 'pages' });
    const extracted = await extractDocument(bytes, {
      name,
      kind,
      workers: config.ingest.workers,
      limits: config.ingest,
      ocr: config.ocr,
      signal,
      onPage: (done, total) => onProgress({ stage: 'extracting', done, total, unit: 'pages' }),
    });

    onProgress({ stage: 'chunking', done: 0, total: 1, unit: 'chunks' });
    const { parents, children } = chunkDocument(extracted.blocks, {
      documentId: id,
      documentName: name,
      scope,
    });
    extracted.blocks.length = 0;
    const attachments = extracted.attachments ?? [];
    if (children.length > config.ingest.maxChunks) throw tooManyChunks(name, children.length, config.ingest);
    checkAborted();
    // BM25 vectors of a large document take seconds: yield now and then so chats go on meanwhile.
    const indexed: IndexedChild[] = [];
    for (const child of children) {
      indexed.push({ ...child, sparse: encodeSparseChild(child.text) });
      if (indexed.length % sparseStep === 0) {
        await yieldToEventLoop();
        checkAborted();
      }
    }

    let embeddingModel: string | null = null;
    if (embedder) {
      for (let from = 0; from < indexed.length; from += embedStep) {
        checkAborted();
        onProgress({ stage: 'embedding', done: from, total: indexed.length, unit: 'chunks' });
        const batch = indexed.slice(from, from + embedStep);
        const vectors = await embedder.embed(batch.map((child) => child.text));
        batch.forEach((child, offset) => {
          child.dense = vectors[offset];
        });
      }
      onProgress({ stage: 'embedding', done: indexed.length, total: indexed.length, unit: 'chunks' });
      const dimension = indexed[0]?.dense?.length ?? null;
      await index.ensureEmbedding({ model: embedder.model, dimension });
      embeddingModel = embedder.model;
    }

    const document: DocumentRecord = {
      id,
      name,
      scope,
      pages: extracted.pageCount,
      bytes: bytes.byteLength,
      parents: parents.length,
      children: indexed.length,
      uploader: request.uploader,
      ingestedAt: new Date().toISOString(),
      embeddingModel,
      sparseWeightsVersion,
      kind,
      ...(request.link ? { link: request.link } : {}),
    };
    checkAborted();
    onProgress({ stage: 'indexing', done: 0, total: indexed.length, unit: 'chunks' });
    await index.replaceDocument({
      document,
      parents,
      children: indexed,
      replaces: older.map((document) => document.id),
    });
    onProgress({ stage: 'done', done: indexed.length, total: indexed.length, unit: 'chunks' });
    const replaced = older[0];
    // The same bytes, not forced: they were stored with older BM25 weights (the only reason to get here).
    const status = same && !request.force ? 'reindexed' : replaced ? 'replaced' : 'ingested';
    logger.info(
      {
        documentId: id,
        name,
        scope,
        pages: document.pages,
        parents: parents.length,
        children: indexed.length,
      },
      `document ${status}`,
    );
    // An e-mail's attachments: each its own document, written after the mail (each one atomic).
    const attachmentOutcomes: AttachmentOutcome[] = [];
    for (const attachment of attachments) {
      const attachmentName = `${name} › ${displayName(attachment.name)}`;
      try {
        const report = await ingest({
          name: attachmentName,
          bytes: attachment.bytes,
          scope,
          uploader: request.uploader,
          ...(request.link ? { link: request.link } : {}),
          ...(request.force ? { force: true } : {}),
          ...(signal ? { signal } : {}),
        });
        attachmentOutcomes.push({ name: attachmentName, report });
      } catch (error) {
        if (!isRagentError(error) || error.code === 'INGEST_CANCELLED') throw error;
        // A type ragent does not read, or a picture without text (a photo, a logo) is skipped: it is
        // part of the mail, not a document that failed.
        const outcome = skippedAttachmentCodes.has(error.code) ? 'skipped' : 'failed';
        attachmentOutcomes.push({ name: attachmentName, outcome, code: error.code, message: error.message });
      }
    }
    return {
      status,
      document,
      ...(replaced ? { replacedDocumentId: replaced.id } : {}),
      seconds: seconds(),
      ...(attachmentOutcomes.length > 0 ? { attachments: attachmentOutcomes } : {}),
    };
  };

  const findDocument = async ({ idOrName, scope }: RemoveRequest): Promise<DocumentRecord> => {
    const wanted = idOrName.trim();
    const documents = await index.listDocuments([scope]);
    const exact = documents.find((document) => document.id === wanted || document.name === wanted);
    if (exact) return exact;
    const byPrefix =
      wanted.length >= 4 && /^[0-9a-f]+$/i.test(wanted)
        ? documents.filter((document) => document.id.startsWith(wanted.toLowerCase()))
        : [];
    if (byPrefix.length === 1 && byPrefix[0]) return byPrefix[0];
    if (byPrefix.length > 1) {
      throw new RagentError(
        'INVALID_INPUT',
        errorMessages.INVALID_INPUT.documentIdAmbiguous({ wanted, matches: byPrefix.length, scope }),
      );
    }
    throw new RagentError('DOCUMENT_NOT_FOUND', errorMessages.DOCUMENT_NOT_FOUND.byName({ wanted, scope }));
  };

  const ingest: Ingestion['ingest'] = (request, onProgress) =>
    withNameLock
      ? withNameLock(request.scope, documentName(request), () => ingestUnlocked(request, onProgress))
      : ingestUnlocked(request, onProgress);

  return {
    ingest,
    listDocuments: (scopes: readonly Scope[]) => index.listDocuments(scopes),
    listPlaceDocuments: async (place: Scope) => {
      // The channels' scopes are not known here: every document, kept when the place owns its scope.
      const documents = index.listAllDocuments
        ? await index.listAllDocuments()
        : await index.listDocuments([place]);
      return documents.filter(
        (document) => document.scope === place || document.scope.startsWith(`${place}:`),
      );
    },
    findDocument,
    removeDocument: async (request: RemoveRequest) => {
      const document = await findDocument(request);
      await index.removeDocument(document.id, document.scope);
      logger.info(
        { documentId: document.id, name: document.name, scope: document.scope },
        'document removed',
      );
      return document;
    },
    moveDocument: async ({ idOrName, from, to }: MoveRequest): Promise<MoveReport> => {
      checkMove(from, to);
      const document = await findDocument({ idOrName, scope: from });
      const outcome = await index.moveDocument(document.id, from, to);
      logger.info(
        { documentId: document.id, name: document.name, from, to, cleanUpPending: outcome.cleanUpPending },
        'document moved',
      );
      return { document: outcome.document, from, cleanUpPending: outcome.cleanUpPending };
    },
  };
}

/** The workspace/server scope of a place or channel scope (see core/ids); the scope itself otherwise. */
function placeOf(scope: Scope): string {
  return placeOfScope(scope) ?? scope;
}

/** A move stays in its workspace/server (or goes to or from shared, which only the CLI offers). */
function checkMove(from: Scope, to: Scope): void {
  if (from === to) {
    throw new RagentError('MOVE_REFUSED', errorMessages.MOVE_REFUSED.alreadyThere({ scope: to }));
  }
  if (from !== sharedScope && to !== sharedScope && placeOf(from) !== placeOf(to)) {
    throw new RagentError('MOVE_REFUSED', errorMessages.MOVE_REFUSED.otherPlace({ from, to }), {
      details: { from, to },
    });
  }
}

/** A fetched document is named by its URL; a file by its name without any directory part. */
function documentName(request: IngestRequest): string {
  return request.url ? request.name.trim() || request.url : displayName(request.name);
}

/** The file name without any directory part (names are compared within a scope). */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop()?.trim() ?? '';
  return base || 'document';
}

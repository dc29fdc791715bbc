/**
 * Re-indexing: computes a document's vectors again from the text the index stores (its children), with
 * the embeddings configured now, and writes it back with one atomic `replaceDocument` — so a crash or an
 * error leaves each document either as it was or re-indexed, never half of each. The write happens only
 * while the document is still the one read (`onlyIfCurrent`): a newer file or a removal meanwhile wins. The original file is not
 * needed (it may be gone). Used after turning embeddings on, after changing the embedding model, or
 * after an upgrade that changed the BM25 weights (the document is written with the current
 * `sparseWeightsVersion`, in the same atomic write as its new vectors):
 * when the index holds another model's vectors, re-indexing everything first drops all dense vectors in
 * one transaction (the index is BM25-only, consistent and searchable meanwhile), then embeds document by
 * document; an interrupted run is finished by running it again.
 */
import type { DocumentRecord, Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { isRagentError, RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { encodeSparseChild, sparseWeightsVersion } from '../retrieval/bm25.ts';
import type { ChunkIndex, Embedder, IndexedChild } from '../retrieval/chunk-index.ts';

export interface ReindexProgress {
  document: DocumentRecord;
  /** 1-based position of the document in this run. */
  position: number;
  documents: number;
  done: number;
  total: number;
}

export interface ReindexSelection {
  /** Every document of every scope when absent. */
  scope?: Scope;
  /** One document of `scope` (id, unique id prefix or name), resolved by the caller. */
  document?: DocumentRecord;
}

export interface ReindexReport {
  reindexed: DocumentRecord[];
  /** True when another model's vectors were dropped first. */
  droppedVectors: boolean;
}

/** Children embedded per progress step (the embedder batches within it). */
const embedStep = 256;

export interface ReindexDependencies {
  index: ChunkIndex;
  embedder: Embedder | undefined;
  logger: Logger;
}

export async function reindexDocuments(
  { index, embedder, logger }: ReindexDependencies,
  selection: ReindexSelection,
  onProgress: (progress: ReindexProgress) => void = () => {},
): Promise<ReindexReport> {
  if (!index.readDocument || !index.listAllDocuments) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.reindexUnsupported());
  }
  const documents = selection.document
    ? [selection.document]
    : selection.scope
      ? await index.listDocuments([selection.scope])
      : await index.listAllDocuments();

  let droppedVectors = false;
  if (embedder) {
    const [probe] = await embedder.embed(['ragent reindex']);
    const info = { model: embedder.model, dimension: probe?.length ?? null };
    try {
      await index.ensureEmbedding(info);
    } catch (error) {
      if (!isRagentError(error) || error.code !== 'INDEX_MODEL_MISMATCH') throw error;
      if (selection.scope || selection.document || !index.dropDenseVectors) {
        throw new RagentError(
          'INDEX_MODEL_MISMATCH',
          errorMessages.INDEX_MODEL_MISMATCH.reindexOtherModel({ model: embedder.model }),
          { cause: error },
        );
      }
      const dropped = await index.dropDenseVectors(info);
      logger.warn({ vectors: dropped, model: embedder.model }, 'dropped the old dense vectors to re-index');
      droppedVectors = true;
      await index.ensureEmbedding(info);
    }
  }

  const reindexed: DocumentRecord[] = [];
  for (const [offset, listed] of documents.entries()) {
    const stored = await index.readDocument(listed.id, listed.scope);
    if (!stored) continue; // removed meanwhile
    const report = (done: number) =>
      onProgress({
        document: stored.document,
        position: offset + 1,
        documents: documents.length,
        done,
        total: stored.children.length,
      });
    report(0);
    const children: IndexedChild[] = stored.children.map((child) => ({
      ...child,
      sparse: encodeSparseChild(child.text),
    }));
    if (embedder) {
      for (let from = 0; from < children.length; from += embedStep) {
        const batch = children.slice(from, from + embedStep);
        const vectors = await embedder.embed(batch.map((child) => child.text));
        batch.forEach((child, at) => {
          child.dense = vectors[at];
        });
        report(Math.min(children.length, from + embedStep));
      }
    }
    const document: DocumentRecord = {
      ...stored.document,
      embeddingModel: embedder?.model ?? null,
      sparseWeightsVersion,
    };
    try {
      await index.replaceDocument({ document, parents: stored.parents, children, onlyIfCurrent: true });
    } catch (error) {
      if (!isRagentError(error) || error.code !== 'DOCUMENT_CHANGED') throw error;
      // Replaced or removed meanwhile (a newer file, `docs remove`): the newer state stays.
      logger.info(
        { documentId: document.id, scope: document.scope },
        'changed while re-indexing; left as it is now',
      );
      continue;
    }
    report(children.length);
    logger.info(
      { documentId: document.id, scope: document.scope, children: children.length },
      'document re-indexed',
    );
    reindexed.push(document);
  }
  return { reindexed, droppedVectors };
}

/**
 * The embedding model and size the embedded store's dense vectors come from, recorded in `meta` by the
 * first write that brings vectors and checked by every later one (INDEX_MODEL_MISMATCH), and the drop of
 * every dense vector before documents are embedded again with another model.
 */
import type Database from 'better-sqlite3';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { ReplaceDocumentInput } from './chunk-index.ts';
import { embeddingMismatchError } from './embedding-mismatch.ts';
import type { LiveSnapshot } from './sqlite-live-snapshot.ts';
import { bumpWriteGeneration, readMeta, setMeta } from './sqlite-meta.ts';
import type { SqliteStore } from './sqlite-open.ts';
import { dropDenseFromPages } from './vector-pages.ts';

/** The size of the document's dense vectors (null without); mixed sizes or missing vectors are refused. */
export function denseDimensionOf(input: ReplaceDocumentInput): number | null {
  let dimension: number | null = null;
  for (const child of input.children) {
    if (!child.dense) continue;
    if (dimension === null) dimension = child.dense.length;
    else if (child.dense.length !== dimension) {
      throw new RagentError(
        'INDEX_MODEL_MISMATCH',
        errorMessages.INDEX_MODEL_MISMATCH.denseSizesDiffer({
          name: input.document.name,
          dimension,
          otherDimension: child.dense.length,
        }),
      );
    }
  }
  if (dimension !== null && input.children.some((child) => !child.dense)) {
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.denseVectorMissing({ name: input.document.name }),
    );
  }
  return dimension;
}

/** Compares with the recorded model; records it when the index holds no dense vectors yet. */
export function checkEmbedding(
  store: SqliteStore,
  info: { model: string; dimension: number | null },
  record: boolean,
): void {
  const model = recordedModel(store.db);
  const dimension = recordedDimension(store.db);
  const holdsVectors = hasDenseVectors(store.db);
  if (holdsVectors && model !== undefined) {
    if (
      model !== info.model ||
      (info.dimension !== null && dimension !== null && dimension !== info.dimension)
    ) {
      throw embeddingMismatch(store.file, model, dimension, info.model, info.dimension);
    }
    if (dimension === null && info.dimension !== null && record) {
      setMeta(store.db, 'embedding_dimension', String(info.dimension));
    }
    return;
  }
  if (!record || (model === info.model && dimension === info.dimension)) return;
  setMeta(store.db, 'embedding_model', info.model);
  if (info.dimension !== null) setMeta(store.db, 'embedding_dimension', String(info.dimension));
  else store.db.prepare("DELETE FROM meta WHERE key = 'embedding_dimension'").run();
}

export function embeddingMismatch(
  file: string,
  indexModel: string,
  indexDimension: number | null,
  wantedModel: string,
  wantedDimension: number | null,
): RagentError {
  return embeddingMismatchError({
    index: `The index at ${file}`,
    indexModel,
    indexDimension,
    wantedModel,
    wantedDimension,
    reindex: 'run `ragent reindex` (it embeds every document again from the stored text).',
  });
}

export function hasDenseVectors(db: Database.Database): boolean {
  return db.prepare('SELECT 1 FROM children WHERE quantized IS NOT NULL LIMIT 1').get() !== undefined;
}

export function recordedModel(db: Database.Database): string | undefined {
  return readMeta(db, 'embedding_model');
}

export function recordedDimension(db: Database.Database): number | null {
  const value = readMeta(db, 'embedding_dimension');
  return value === undefined ? null : Number(value);
}

/**
 * Drops every dense vector in one transaction (the index becomes BM25-only, consistent and
 * searchable), so that documents can be embedded again with another model one at a time.
 */
export async function dropDenseVectors(store: SqliteStore, live: LiveSnapshot): Promise<number> {
  const changed = store.db.transaction(() => {
    bumpWriteGeneration(store.db);
    const { changes } = store.db
      .prepare(
        'UPDATE children SET quantized = NULL, dense = NULL WHERE quantized IS NOT NULL OR dense IS NOT NULL',
      )
      .run();
    dropDenseFromPages(store.db);
    store.db.prepare('UPDATE documents SET embedding_model = NULL').run();
    store.db.prepare("DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimension')").run();
    return changes;
  })();
  live.generation++;
  live.snapshot = undefined;
  return changed;
}

/**
 * The Qdrant collection: its layout (dense size, or BM25 only), its creation with the payload indexes
 * (scope, document_id, kind, version, parent_id, name, document_name, moved_from_scope), and the `meta`
 * point that records the embedding model and dimension it was built with, and the drop of every dense
 * vector before the documents are embedded again with another model of the same size.
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { IndexEmbeddingInfo } from './chunk-index.ts';
import { embeddingMismatchError } from './embedding-mismatch.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { denseName, type Payload, sparseName } from './qdrant-points.ts';

/** Used when the collection is created (QDRANT_SHARDS, QDRANT_REPLICATION_FACTOR, QDRANT_WRITE_CONSISTENCY). */
export interface CollectionSettings {
  shards?: number;
  replicationFactor?: number;
  writeConsistency?: number;
}

/** What the index knows of its collection, and how it learns whether there is one. */
export interface CollectionLayout {
  /** Dense size of the collection; null = BM25 only; undefined = no collection yet. */
  denseSize: number | null | undefined;
  hasCollection(): Promise<boolean>;
}

const metaId = '00000000-0000-4000-8000-000000000000';
const payloadIndexes = [
  'scope',
  'document_id',
  'kind',
  'version',
  'parent_id',
  'name',
  'document_name',
  'moved_from_scope',
];

/** The dense size of the collection: null = BM25 only; undefined = no collection yet. */
export function readDenseSize(connection: QdrantConnection): Promise<number | null | undefined> {
  const { client, collection } = connection;
  return callQdrant(connection, 'connect', async () => {
    const { exists } = await client.collectionExists(collection);
    if (!exists) return undefined;
    const info = await client.getCollection(collection);
    const vectors = (info.config.params.vectors ?? {}) as Record<string, { size?: number }>;
    return vectors[denseName]?.size ?? null;
  });
}

/**
 * Creates the collection (dense vectors of `dimension`, or BM25 only when null) and its payload indexes.
 * False when another replica (or write) created it first.
 */
export function createCollection(
  connection: QdrantConnection,
  settings: CollectionSettings,
  dimension: number | null,
): Promise<boolean> {
  const { client, collection } = connection;
  return callQdrant(connection, 'create the collection', async () => {
    try {
      await client.createCollection(collection, {
        vectors: dimension === null ? {} : { [denseName]: { size: dimension, distance: 'Cosine' } },
        sparse_vectors: { [sparseName]: { modifier: 'idf' } },
        shard_number: settings.shards ?? 1,
        replication_factor: settings.replicationFactor ?? 1,
        write_consistency_factor: settings.writeConsistency ?? 1,
      });
    } catch (error) {
      // Another replica (or write) created it first: use theirs.
      if ((await client.collectionExists(collection)).exists) return false;
      throw error;
    }
    // Payload indexes are idempotent: created again by whoever created the collection.
    for (const field of payloadIndexes) {
      await client.createPayloadIndex(collection, {
        field_name: field,
        field_schema: 'keyword',
        wait: true,
      });
    }
    return true;
  });
}

/** A dense write into a collection created for BM25 only. */
export function bm25OnlyCollection(collection: string): RagentError {
  return new RagentError(
    'INDEX_MODEL_MISMATCH',
    errorMessages.INDEX_MODEL_MISMATCH.collectionWithoutVectors({ collection }),
  );
}

/** Throws INDEX_MODEL_MISMATCH for another model or dimension; records the model on first use. */
export async function ensureEmbedding(
  connection: QdrantConnection,
  layout: CollectionLayout,
  info: IndexEmbeddingInfo,
): Promise<void> {
  if (info.model === null) return;
  const denseSize = layout.denseSize;
  // Refused before anything is recorded: a collection's named vectors are fixed when it is created.
  if (denseSize === null && info.dimension !== null) throw bm25OnlyCollection(connection.collection);
  if (
    denseSize !== undefined &&
    denseSize !== null &&
    info.dimension !== null &&
    denseSize !== info.dimension
  ) {
    const meta = await readMeta(connection);
    throw qdrantMismatch(
      connection.collection,
      meta?.model ?? 'unknown',
      denseSize,
      info.model,
      info.dimension,
    );
  }
  if (!(await layout.hasCollection())) return;
  const meta = await readMeta(connection);
  if (meta && meta.model !== info.model) {
    throw qdrantMismatch(connection.collection, meta.model, meta.dimension, info.model, info.dimension);
  }
  if (!meta || (meta.dimension === null && info.dimension !== null)) {
    await callQdrant(connection, 'write', () =>
      connection.client.upsert(connection.collection, {
        wait: true,
        points: [
          {
            id: metaId,
            vector: {},
            payload: {
              kind: 'meta',
              scope: '',
              embedding_model: info.model,
              embedding_dimension: info.dimension,
            },
          },
        ],
      }),
    );
  }
}

/** The embedding model and dimension the collection was built with (undefined: none recorded yet). */
export async function readMeta(
  connection: QdrantConnection,
): Promise<{ model: string; dimension: number | null } | undefined> {
  const [point] = await callQdrant(connection, 'read', () =>
    connection.client.retrieve(connection.collection, { ids: [metaId], with_payload: true }),
  );
  const payload = point?.payload as Payload | undefined;
  if (!payload || typeof payload.embedding_model !== 'string') return undefined;
  const dimension = typeof payload.embedding_dimension === 'number' ? payload.embedding_dimension : null;
  return { model: payload.embedding_model, dimension };
}

export function qdrantMismatch(
  collection: string,
  indexModel: string,
  indexDimension: number | null,
  wantedModel: string,
  wantedDimension: number | null,
): RagentError {
  const fixedSize = indexDimension !== null && wantedDimension !== null && indexDimension !== wantedDimension;
  return embeddingMismatchError({
    index: `The Qdrant collection "${collection}"`,
    indexModel,
    indexDimension,
    wantedModel,
    wantedDimension,
    reindex: fixedSize
      ? newCollectionNeeded
      : 'run `ragent reindex` (it embeds every document again from the text Qdrant stores).',
  });
}

const newCollectionNeeded =
  'a Qdrant collection keeps the vector size it was created with, so set QDRANT_COLLECTION to a new name ' +
  'and ingest your files again there (the old collection is left as it is until you delete it).';

/**
 * Drops the dense vector of every child, so that every document can be embedded again with `next`:
 * only for a model of the collection's own dense size (a collection keeps the size it was created with;
 * anything else is refused before a vector is touched). Each step is idempotent and leaves the index
 * searchable; after a failure at any step, `ragent reindex` finds the old model still recorded and runs
 * them again:
 * 1. every child's `dense` vector is deleted (documents not yet embedded again are found by BM25);
 * 2. every document record says BM25 only (what `docs list` and `doctor` report until re-indexed);
 * 3. the `meta` point (the old model) is deleted, so the next write records `next`.
 * Returns the number of children.
 */
export async function dropDenseVectors(
  connection: QdrantConnection,
  layout: CollectionLayout,
  next: IndexEmbeddingInfo,
): Promise<number> {
  if (!(await layout.hasCollection())) return 0;
  const { client, collection } = connection;
  const denseSize = layout.denseSize;
  if (next.dimension !== null) {
    if (denseSize === null) throw bm25OnlyCollection(collection);
    if (denseSize !== undefined && denseSize !== next.dimension) {
      const meta = await readMeta(connection);
      throw embeddingMismatchError({
        index: `The Qdrant collection "${collection}"`,
        indexModel: meta?.model ?? 'unknown',
        indexDimension: denseSize,
        wantedModel: next.model ?? 'none',
        wantedDimension: next.dimension,
        reindex: newCollectionNeeded,
      });
    }
  }
  const children = { must: [{ key: 'kind', match: { value: 'child' } }] };
  const documents = { must: [{ key: 'kind', match: { value: 'document' } }] };
  const what = 'drop the old dense vectors (run `ragent reindex` again to finish)';
  return callQdrant(connection, what, async () => {
    const { count } = await client.count(collection, { filter: children, exact: true });
    if (denseSize !== null) {
      await client.deleteVectors(collection, {
        wait: true,
        ordering: 'strong',
        filter: children,
        vector: [denseName],
      });
    }
    await client.setPayload(collection, {
      wait: true,
      ordering: 'strong',
      filter: documents,
      payload: { embedding_model: null },
    });
    await client.delete(collection, { wait: true, ordering: 'strong', points: [metaId] });
    return count;
  });
}

/**
 * What retrieval reads from Qdrant: the children of the live versions of the caller's scopes (sparse
 * BM25, dense, or both fused with RRF) and their parents. Search over-fetches `candidatePoolSize(k)`
 * points and keeps at most two children per parent (`limitPerParent`, shared with the embedded store).
 *
 * Note: Qdrant computes IDF over the whole collection, the embedded store over the caller's scopes.
 */
import type { ParentChunk, Scope, SearchHit } from '../core/types.ts';
import type { SearchOptions, SearchQuery } from './chunk-index.ts';
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { qdrantMismatch, readMeta } from './qdrant-collection.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { liveVersions } from './qdrant-live-reads.ts';
import { denseName, type Payload, sparseName, toChild, toParent } from './qdrant-points.ts';

const fusionDepth = (k: number) => Math.max(k * 4, 40);

/** Searches a collection whose dense vectors are `denseSize` long (null: BM25 only). */
export async function searchChunks(
  connection: QdrantConnection,
  denseSize: number | null,
  query: SearchQuery,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const k = Math.floor(options.k);
  const useSparse = query.sparse.indices.length > 0;
  const useDense = query.dense !== undefined && denseSize !== null;
  if (query.dense && denseSize && query.dense.length !== denseSize) {
    const meta = await readMeta(connection);
    throw qdrantMismatch(
      connection.collection,
      meta?.model ?? 'unknown',
      denseSize,
      'the query embedder',
      query.dense.length,
    );
  }
  if (!useSparse && !useDense) return [];
  const versions = await liveVersions(connection, options.scopes);
  if (versions.length === 0) return [];
  const filter = {
    must: [
      { key: 'kind', match: { value: 'child' } },
      { key: 'scope', match: { any: [...options.scopes] } },
      { key: 'version', match: { any: versions } },
    ],
  };
  const sparse = { indices: query.sparse.indices, values: query.sparse.values };
  const dense = query.dense ? Array.from(query.dense) : [];
  const pool = candidatePoolSize(k);
  const request =
    useSparse && useDense
      ? {
          prefetch: [
            { query: sparse, using: sparseName, limit: fusionDepth(pool), filter },
            { query: dense, using: denseName, limit: fusionDepth(pool), filter },
          ],
          query: { fusion: 'rrf' as const },
          filter,
          limit: pool,
          with_payload: true,
        }
      : {
          query: useSparse ? sparse : dense,
          using: useSparse ? sparseName : denseName,
          filter,
          limit: pool,
          with_payload: true,
        };
  const result = await callQdrant(connection, 'search', () =>
    connection.client.query(connection.collection, request),
  );
  const ranked = result.points.map((point) => ({
    child: toChild(point.payload as Payload),
    score: point.score,
  }));
  return limitPerParent(ranked, k);
}

/** The parent `parentId` of a live version in these scopes. */
export async function readParent(
  connection: QdrantConnection,
  parentId: string,
  scopes: readonly Scope[],
): Promise<ParentChunk | undefined> {
  const versions = await liveVersions(connection, scopes);
  if (versions.length === 0) return undefined;
  const { points } = await callQdrant(connection, 'read', () =>
    connection.client.scroll(connection.collection, {
      limit: 1,
      with_payload: true,
      filter: {
        must: [
          { key: 'kind', match: { value: 'parent' } },
          { key: 'scope', match: { any: [...scopes] } },
          { key: 'version', match: { any: versions } },
          { key: 'parent_id', match: { value: parentId } },
        ],
      },
    }),
  );
  const payload = points[0]?.payload as Payload | undefined;
  if (!payload) return undefined;
  return toParent(payload);
}

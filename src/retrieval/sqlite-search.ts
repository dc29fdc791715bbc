/**
 * Search in the embedded store: BM25 and dense rankings over the live search snapshot, fused with
 * reciprocal rank fusion. It ranks `candidatePoolSize(k)` candidates and keeps at most two children per
 * parent (`limitPerParent`, shared with the Qdrant backend). The segments are scanned in slices
 * (`sliceMs`), and the search starts over when a write lands between two of them. The hits are read
 * back from the store and re-checked against the caller's scopes.
 */
import type { Scope, SearchHit } from '../core/types.ts';
import type { SearchOptions, SearchQuery } from './chunk-index.ts';
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { reciprocalRankFusion } from './fusion.ts';
import type { Scored } from './segment-parts.ts';
import { embeddingMismatch, recordedDimension, recordedModel } from './sqlite-embedding.ts';
import type { LiveSnapshot } from './sqlite-live-snapshot.ts';
import type { SqliteStore } from './sqlite-open.ts';
import { type ChildRow, toChild } from './sqlite-rows.ts';
import { currentSnapshot } from './sqlite-snapshot-refresh.ts';
import { normalized } from './vector-codec.ts';
import { runSteps, runStepsNow, slicePause } from './work-in-slices.ts';

/** How deep each ranking goes before fusion. */
const fusionDepth = (k: number) => Math.max(k * 4, 40);

export async function searchChunks(
  store: SqliteStore,
  live: LiveSnapshot,
  query: SearchQuery,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const k = Math.floor(options.k);
  if (options.scopes.length === 0 || k <= 0) return [];
  const dimension = recordedDimension(store.db);
  if (query.dense && dimension !== null && query.dense.length !== dimension) {
    throw embeddingMismatch(
      store.file,
      recordedModel(store.db) ?? 'unknown',
      dimension,
      'the query embedder',
      query.dense.length,
    );
  }
  const pool = candidatePoolSize(k);
  const depth = fusionDepth(pool);
  const denseQuery = query.dense ? normalized(query.dense) : undefined;
  let sparse: Scored[] = [];
  let dense: Scored[] = [];
  // The segments are searched in slices that let the event loop turn. A write applied meanwhile (or a
  // merged snapshot) starts the search over, so that it sees one state of the index; a third attempt
  // runs in one block.
  for (let attempt = 1; ; attempt++) {
    const snapshot = await currentSnapshot(live);
    const allowed = snapshot.allowedScopes(options.scopes);
    if (!allowed.includes(1)) return [];
    const changes = snapshot.changes;
    const steps = (function* () {
      const sparseHits =
        query.sparse.indices.length > 0 ? yield* snapshot.searchSparse(query.sparse, allowed, depth) : [];
      const denseHits = denseQuery ? yield* snapshot.searchDense(denseQuery, allowed, depth) : [];
      return [sparseHits, denseHits] as const;
    })();
    if (attempt === 3) {
      [sparse, dense] = runStepsNow(steps);
      break;
    }
    [sparse, dense] = await runSteps(steps, slicePause(live.sliceMs));
    if (snapshot === live.snapshot && snapshot.changes === changes) break;
  }
  let ranked: Scored[];
  if (sparse.length > 0 && dense.length > 0) {
    ranked = reciprocalRankFusion([sparse.map((hit) => hit.rowid), dense.map((hit) => hit.rowid)], pool).map(
      ({ key, score }) => ({ rowid: key, score }),
    );
  } else {
    ranked = (sparse.length > 0 ? sparse : dense).slice(0, pool);
  }
  return limitPerParent(hitsFor(store, ranked, options.scopes), k);
}

/** The children of the ranked row ids, re-checked against the caller's scopes. */
function hitsFor(store: SqliteStore, ranked: Scored[], scopes: readonly Scope[]): SearchHit[] {
  if (ranked.length === 0) return [];
  const keys = ranked.map((hit) => hit.rowid);
  const rows = store.db
    .prepare(
      `SELECT key, scope, id, document_id, document_name, parent_id, page_start, page_end, section_path, text
         FROM children WHERE key IN (SELECT value FROM json_each(?))
           AND scope IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(keys), JSON.stringify(scopes)) as ChildRow[];
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const hits: SearchHit[] = [];
  ranked.forEach((hit) => {
    const row = byKey.get(hit.rowid);
    if (row) hits.push({ child: toChild(row), score: hit.score });
  });
  return hits;
}

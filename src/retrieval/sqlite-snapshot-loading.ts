/**
 * The background load of the search snapshot: every child is read through a second, read-only
 * connection inside one read transaction, in slices that yield to the event loop (`sliceMs`), from the
 * first source that serves: the saved snapshot (snapshot-file.ts) when its write generation is the
 * store's, else the compact vector table (vector-pages.ts) when it is current, else the children rows.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { buildSegment, buildSegmentFromPages } from './build-segment.ts';
import { SearchSnapshot } from './search-snapshot.ts';
import type { SnapshotRow } from './segment-parts.ts';
import { readSnapshotFile } from './snapshot-file.ts';
import type { SnapshotSegment } from './snapshot-segment.ts';
import { ScopeTable } from './snapshot-tables.ts';
import {
  applyTo,
  BuildCancelled,
  dataVersion,
  type LiveSnapshot,
  saveSnapshot,
  snapshotOptions,
} from './sqlite-live-snapshot.ts';
import {
  type PageTuple,
  selectPages,
  slicePage,
  toVectorPage,
  type VectorPage,
  vectorPagesCurrent,
} from './vector-pages.ts';
import { type Pause, slicePause } from './work-in-slices.ts';

/**
 * Reads every child through a second, read-only connection inside one read transaction (a consistent
 * picture while writes go on), in slices that yield to the event loop; then replays the local writes
 * committed meanwhile. Starts over when another process wrote during the build.
 */
export async function buildInBackground(live: LiveSnapshot): Promise<void> {
  // Not in the same turn of the event loop as the caller (often the index's opening, at start).
  await nextTurn();
  for (;;) {
    const started = performance.now();
    const generation = live.generation;
    // Taken before the read transaction starts: a write by another process in between makes this build
    // stale by `data_version`, and it starts over.
    const version = dataVersion(live.db);
    const reader = new Database(live.file, { readonly: true, fileMustExist: true });
    let rows: IterableIterator<SnapshotRow> | undefined;
    let loaded: SearchSnapshot | undefined;
    let storeGeneration: string;
    const scopes = new ScopeTable();
    try {
      reader.pragma('mmap_size = 0');
      reader.exec('BEGIN');
      const metaValue = (key: string) =>
        reader.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
      const dimensionValue = metaValue('embedding_dimension');
      storeGeneration = metaValue('write_generation') ?? '0';
      live.writesDuringBuild = [];
      const slice = slicePause(live.sliceMs);
      const pause: Pause = () => {
        if (live.closed) throw new BuildCancelled('closed');
        return slice();
      };
      loaded = await readSnapshotFile(live.snapshotFile, storeGeneration, snapshotOptions(live), pause).catch(
        (error: unknown) => {
          if (error instanceof BuildCancelled) throw error;
          live.logger?.warn({ err: error }, 'the saved search snapshot is unreadable; rebuilding it');
          return undefined;
        },
      );
      const dimension = dimensionValue === undefined ? null : Number(dimensionValue);
      if (loaded) live.savedGeneration = storeGeneration;
      else if (live.loadFrom === 'pages' && vectorPagesCurrent(reader)) {
        loaded = await loadFromPages(live, reader, dimension, scopes, pause);
      } else {
        const count = await countChildren(reader, pause);
        const tuples = reader
          .prepare('SELECT key, scope, sparse, quantized FROM children ORDER BY key')
          .raw()
          .iterate() as IterableIterator<[number, string, Uint8Array | null, Uint8Array | null]>;
        rows = asRows(tuples);
        // Segments of at most `segmentRows` children: no single allocation or pass holds the loop long,
        // and each segment pre-selects its own dense candidates (better recall on large indexes).
        const segments: SnapshotSegment[] = [];
        for (let remaining = count; ; remaining -= live.segmentRows) {
          const segment = await buildSegment(take(rows, live.segmentRows), {
            dimension,
            scopes,
            expectedSize: Math.max(1, Math.min(remaining, live.segmentRows)),
            pause,
          });
          if (segment.size === 0) break;
          segments.push(segment);
          if (segment.size < live.segmentRows) break;
        }
        rows = undefined;
        loaded = new SearchSnapshot(scopes, segments, snapshotOptions(live));
      }
      reader.exec('COMMIT');
    } finally {
      rows?.return?.();
      reader.close();
    }
    if (live.closed) throw new BuildCancelled('closed');
    if (generation !== live.generation || version !== dataVersion(live.db)) continue;
    const snapshot = loaded;
    const replayed = live.writesDuringBuild ?? [];
    for (const write of replayed) applyTo(snapshot, write);
    live.loadedSegments = loaded.segments.length;
    live.snapshot = snapshot;
    live.snapshotVersion = version;
    if (replayed.length === 0 && live.savedGeneration !== storeGeneration) {
      saveSnapshot(live, snapshot, storeGeneration).catch(() => {});
    }
    live.logger?.debug(
      { children: snapshot.size, ms: Math.round(performance.now() - started) },
      'search snapshot built',
    );
    return;
  }
}

/**
 * Loads the snapshot from the compact vector table: a few hundred large blobs, copied in bulk, in
 * segments of at most `segmentRows` children (a page is split between two segments when needed).
 */
async function loadFromPages(
  live: LiveSnapshot,
  reader: Database.Database,
  dimension: number | null,
  scopes: ScopeTable,
  pause: Pause,
): Promise<SearchSnapshot> {
  const count = (reader.prepare('SELECT SUM(count) FROM vector_pages').pluck().get() as number | null) ?? 0;
  const tuples = reader.prepare(selectPages).raw().iterate() as IterableIterator<PageTuple>;
  const segmentRows = live.segmentRows;
  let pending: VectorPage | undefined;
  let exhausted = false;
  function* segmentPages(): Generator<VectorPage, undefined, undefined> {
    let taken = 0;
    while (taken < segmentRows) {
      if (!pending) {
        const next = tuples.next();
        if (next.done) {
          exhausted = true;
          return;
        }
        pending = toVectorPage(next.value);
      }
      const page: VectorPage = pending;
      const room = segmentRows - taken;
      if (page.count <= room) {
        pending = undefined;
        taken += page.count;
        yield page;
      } else {
        pending = slicePage(page, room, page.count);
        taken += room;
        yield slicePage(page, 0, room);
      }
    }
  }
  const segments: SnapshotSegment[] = [];
  try {
    for (let remaining = count; !exhausted || pending; remaining -= segmentRows) {
      const segment = await buildSegmentFromPages(segmentPages(), {
        dimension,
        scopes,
        expectedSize: Math.max(1, Math.min(remaining, segmentRows)),
        pause,
      });
      if (segment.size === 0) break;
      segments.push(segment);
    }
  } finally {
    tuples.return?.();
  }
  return new SearchSnapshot(scopes, segments, snapshotOptions(live));
}

/**
 * The children in the store, counted a document at a time (one `COUNT(*)` over a large index holds the
 * event loop for tens of milliseconds), pausing between documents when the slice is used up.
 */
async function countChildren(reader: Database.Database, pause: Pause): Promise<number> {
  const counts = reader
    .prepare('SELECT COUNT(*) FROM children GROUP BY scope, document_id')
    .pluck()
    .iterate() as IterableIterator<number>;
  let total = 0;
  try {
    for (const count of counts) {
      total += count;
      await pause();
    }
  } finally {
    counts.return?.();
  }
  return total;
}

/** Up to `limit` more rows of `rows` (which stays open for the next call). */
function* take(rows: Iterator<SnapshotRow>, limit: number): Generator<SnapshotRow, undefined, undefined> {
  for (let count = 0; count < limit; count++) {
    const next = rows.next();
    if (next.done) return;
    yield next.value;
  }
}

function* asRows(
  tuples: IterableIterator<[number, string, Uint8Array | null, Uint8Array | null]>,
): Generator<SnapshotRow, undefined, undefined> {
  const row: SnapshotRow = { rowid: 0, scope: '', sparse: null, quantized: null };
  try {
    for (const [rowid, scope, sparse, quantized] of tuples) {
      row.rowid = rowid;
      row.scope = scope;
      row.sparse = sparse;
      row.quantized = quantized;
      yield row;
    }
  } finally {
    tuples.return?.();
  }
}

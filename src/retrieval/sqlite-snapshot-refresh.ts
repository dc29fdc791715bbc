/**
 * Keeps the live search snapshot current: built in the background at start (`warmUp`) or on the first
 * search, which waits for it; a write by another process (`PRAGMA data_version` changes) makes the next
 * search wait for a fresh build; a local write is applied in place, and the segments are merged back by
 * a background rebuild when there are too many (`maxSegments`) or a quarter of the rows are deleted.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SearchSnapshot } from './search-snapshot.ts';
import {
  applyTo,
  BuildCancelled,
  dataVersion,
  type LiveSnapshot,
  type SnapshotWrite,
} from './sqlite-live-snapshot.ts';
import { buildInBackground } from './sqlite-snapshot-loading.ts';

/** The live snapshot; waits for a build when there is none or another process wrote. */
export async function currentSnapshot(live: LiveSnapshot): Promise<SearchSnapshot> {
  for (;;) {
    const version = dataVersion(live.db);
    if (live.snapshot && version === live.snapshotVersion) return live.snapshot;
    live.snapshot = undefined;
    await rebuild(live);
    // The build's last slice and this search run as two turns of the event loop, not one.
    await nextTurn();
  }
}

function rebuild(live: LiveSnapshot): Promise<void> {
  live.building ??= buildInBackground(live).finally(() => {
    live.building = undefined;
    live.writesDuringBuild = undefined;
  });
  return live.building;
}

/** Brings the live snapshot (and a build in progress) up to date with a committed local write. */
export function applyWrite(live: LiveSnapshot, write: SnapshotWrite): void {
  live.writesDuringBuild?.push(write);
  const snapshot = live.snapshot;
  if (!snapshot) return;
  applyTo(snapshot, write);
  const deletedShare = 1 - snapshot.size / snapshot.segments.reduce((sum, segment) => sum + segment.size, 0);
  const added = snapshot.segments.length - live.loadedSegments;
  if (!live.building && (added > live.maxSegments || deletedShare > 0.25)) {
    rebuild(live).catch((error: unknown) => {
      if (!(error instanceof BuildCancelled))
        live.logger?.error({ err: error }, 'merging the search index failed');
    });
  }
}

/** Starts building the search snapshot in the background (at start); failures are logged. */
export function warmUp(live: LiveSnapshot): void {
  if (live.closed || live.building || live.snapshot) return;
  const started = performance.now();
  rebuild(live).then(
    () =>
      live.logger?.info(
        { children: live.snapshot?.size ?? 0, ms: Math.round(performance.now() - started) },
        'search index loaded',
      ),
    (error: unknown) => {
      if (!(error instanceof BuildCancelled))
        live.logger?.error({ err: error }, 'loading the search index failed');
    },
  );
}

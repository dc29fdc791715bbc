/**
 * The in-memory `SearchSnapshot` the embedded index searches, and what this process knows of it: the
 * `data_version` of the main connection it reflects, the build in progress and the local writes committed
 * meanwhile, the generation (bumped when every vector changes at once), and the saved copy
 * (snapshot-file.ts) stamped with the store's write generation. A local write updates the snapshot in
 * place: a small segment for the new children, deleted ones marked.
 */
import type Database from 'better-sqlite3';
import type { Logger } from '../logger.ts';
import { buildSegmentNow } from './build-segment.ts';
import type { SearchSnapshot } from './search-snapshot.ts';
import type { SnapshotRow } from './segment-parts.ts';
import { writeSnapshotFile } from './snapshot-file.ts';

/** How the snapshot is built, searched and kept (see `SqliteChunkIndexOptions`). */
export interface LiveSnapshotSettings {
  /** The store file (a build reads it through a second, read-only connection). */
  readonly file: string;
  /** The main connection, whose `data_version` tells a write by another process. */
  readonly db: Database.Database;
  readonly logger: Logger | undefined;
  readonly exactLimit: number;
  readonly rescoreCandidates: number;
  readonly sliceMs: number;
  readonly maxSegments: number;
  readonly segmentRows: number;
  readonly loadFrom: 'pages' | 'rows';
  readonly snapshotFile: string;
}

export interface LiveSnapshot extends LiveSnapshotSettings {
  /** Segments the last load produced (later writes add one each). */
  loadedSegments: number;
  snapshot: SearchSnapshot | undefined;
  /** The main connection's `data_version` the live snapshot reflects. */
  snapshotVersion: number;
  building: Promise<void> | undefined;
  /** Local writes committed while a build runs, replayed onto its result. */
  writesDuringBuild: SnapshotWrite[] | undefined;
  /** Bumped when every vector changes at once; a build started before it is thrown away. */
  generation: number;
  closed: boolean;
  /** The write generation of the snapshot file last saved by this process. */
  savedGeneration: string | undefined;
  saving: Promise<void> | undefined;
}

/** What one committed write changed, for the in-memory snapshot. */
export interface SnapshotWrite {
  deleted: number[];
  rows: SnapshotRow[];
}

export class BuildCancelled extends Error {}

export function createLiveSnapshot(settings: LiveSnapshotSettings): LiveSnapshot {
  return {
    ...settings,
    loadedSegments: 1,
    snapshot: undefined,
    snapshotVersion: -1,
    building: undefined,
    writesDuringBuild: undefined,
    generation: 0,
    closed: false,
    savedGeneration: undefined,
    saving: undefined,
  };
}

export function dataVersion(db: Database.Database): number {
  return db.pragma('data_version', { simple: true }) as number;
}

export function snapshotOptions(live: LiveSnapshot) {
  return { dimension: null, exactLimit: live.exactLimit, rescoreCandidates: live.rescoreCandidates };
}

export function applyTo(snapshot: SearchSnapshot, write: SnapshotWrite): void {
  snapshot.markDeleted(write.deleted);
  if (write.rows.length === 0) return;
  const dimension = write.rows.find((row) => row.quantized)?.quantized?.byteLength;
  snapshot.addSegment(
    buildSegmentNow(write.rows, {
      dimension: dimension === undefined ? null : dimension - 4,
      scopes: snapshot.scopes,
    }),
  );
}

/**
 * Saves the snapshot for the next start, stamped with the store's write generation it reflects (any
 * later write makes the file stale). Failures only cost the next start a rebuild: they are logged.
 */
export async function saveSnapshot(
  live: LiveSnapshot,
  snapshot: SearchSnapshot,
  generation: string,
): Promise<void> {
  live.saving ??= writeSnapshotFile(live.snapshotFile, snapshot, generation)
    .then(() => {
      live.savedGeneration = generation;
    })
    .catch((error: unknown) => {
      live.logger?.warn({ err: error }, 'could not save the search snapshot');
    })
    .finally(() => {
      live.saving = undefined;
    });
  return live.saving;
}

/** For benchmarks and diagnostics: whether searches are served without waiting, and its memory. */
export function snapshotStats(live: LiveSnapshot): {
  ready: boolean;
  children: number;
  segments: number;
  bytes: number;
} {
  const snapshot = live.snapshot;
  return {
    ready: snapshot !== undefined && !live.closed,
    children: snapshot?.size ?? 0,
    segments: snapshot?.segments.length ?? 0,
    bytes: snapshot?.byteSize() ?? 0,
  };
}

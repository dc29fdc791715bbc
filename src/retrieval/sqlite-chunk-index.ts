/**
 * The embedded backend of `ChunkIndex`: one SQLite file (WAL) holding documents, parents, children and
 * their vectors (sparse + int8; no float32 copy is stored, it was never read), plus the same vectors
 * stored contiguously in the compact vector table (vector-pages.ts). Reads go through an in-memory
 * `SearchSnapshot` (search-snapshot.ts). This class holds the connection and the live snapshot, and
 * delegates each part to the file named after it:
 * - sqlite-open.ts: opening (writability checks, pragmas) and the migrations at open;
 * - sqlite-meta.ts: the format version, the recorded embedding and the write generation in `meta`;
 * - sqlite-embedding.ts: the embedding model check, and the drop of the dense vectors;
 * - sqlite-document-writes.ts and sqlite-move.ts: the atomic replace (`onlyIfCurrent`) and removal of a
 *   document, and its atomic move between scopes;
 * - sqlite-documents.ts and sqlite-rows.ts: document records, parents, a document read back whole;
 * - sqlite-search.ts: search (BM25 + dense, RRF, scope filters, at most two children per parent);
 * - sqlite-live-snapshot.ts, sqlite-snapshot-refresh.ts and sqlite-snapshot-loading.ts: the live
 *   snapshot, how it is kept current, and its background load in slices.
 */
import type Database from 'better-sqlite3';
import type { DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type {
  ChunkIndex,
  IndexEmbeddingInfo,
  MoveOutcome,
  ReplaceDocumentInput,
  SearchOptions,
  SearchQuery,
  StoredDocument,
} from './chunk-index.ts';
import { removeDocument, replaceDocument } from './sqlite-document-writes.ts';
import {
  childCount,
  getDocument,
  getParent,
  listAllDocuments,
  listDocuments,
  readDocument,
} from './sqlite-documents.ts';
import { checkEmbedding, dropDenseVectors } from './sqlite-embedding.ts';
import {
  createLiveSnapshot,
  dataVersion,
  type LiveSnapshot,
  saveSnapshot,
  snapshotStats,
} from './sqlite-live-snapshot.ts';
import { writeGeneration } from './sqlite-meta.ts';
import { type MoveStep, moveDocument } from './sqlite-move.ts';
import { checkSchemaVersion, ensureVectorPages, openWritable, type SqliteStore } from './sqlite-open.ts';
import { searchChunks } from './sqlite-search.ts';
import { warmUp } from './sqlite-snapshot-refresh.ts';

export type { MoveStep } from './sqlite-move.ts';

export interface SqliteChunkIndexOptions {
  file: string;
  logger?: Logger;
  /** Dense vectors scanned exactly up to this count; above it, sign-bit pre-selection + int8 rescoring. */
  exactLimit?: number;
  rescoreCandidates?: number;
  /**
   * The background build, and a search over several segments, run in slices of about this long between
   * event-loop turns (default 10 ms).
   */
  sliceMs?: number;
  /** Merge the snapshot's segments in the background above this many (default 16). */
  maxSegments?: number;
  /** Children per segment when the snapshot is loaded from the store (default 65,536). */
  segmentRows?: number;
  /**
   * Test seam: called inside a move's transaction before each of its steps; an error thrown here ends
   * the move there (as a crash would), and the transaction leaves the document where it was.
   */
  beforeMoveStep?: (step: MoveStep) => void;
  /**
   * Where a load without a current saved snapshot reads the vectors: the compact vector table when it is
   * current (default), or always the children rows (for tests and benchmarks).
   */
  loadFrom?: 'pages' | 'rows';
  /** For tests: called after each document while the vector table is rebuilt at open (may throw). */
  onVectorPagesRebuilt?: (documents: number) => void;
}

export function openSqliteChunkIndex(options: SqliteChunkIndexOptions): SqliteChunkIndex {
  return new SqliteChunkIndex(options);
}

export class SqliteChunkIndex implements ChunkIndex {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly store: SqliteStore;
  private readonly beforeMoveStep: (step: MoveStep) => void;
  private readonly live: LiveSnapshot;

  constructor(options: SqliteChunkIndexOptions) {
    this.file = options.file;
    this.beforeMoveStep = options.beforeMoveStep ?? (() => {});
    this.db = openWritable(this.file);
    this.store = { file: this.file, db: this.db, logger: options.logger };
    this.live = createLiveSnapshot({
      file: this.file,
      db: this.db,
      logger: options.logger,
      exactLimit: options.exactLimit ?? 5_000,
      rescoreCandidates: options.rescoreCandidates ?? 400,
      sliceMs: options.sliceMs ?? 10,
      maxSegments: options.maxSegments ?? 16,
      segmentRows: options.segmentRows ?? 65_536,
      loadFrom: options.loadFrom ?? 'pages',
      snapshotFile: `${this.file}.snapshot`,
    });
    checkSchemaVersion(this.db, this.file);
    ensureVectorPages(this.store, options.onVectorPagesRebuilt);
  }

  replaceDocument(input: ReplaceDocumentInput): Promise<void> {
    return replaceDocument(this.store, this.live, input);
  }

  removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    return removeDocument(this.store, this.live, documentId, scope);
  }

  moveDocument(documentId: string, from: Scope, to: Scope): Promise<MoveOutcome> {
    return moveDocument(this.store, this.live, this.beforeMoveStep, { documentId, from, to });
  }

  getDocument(documentId: string, scope: Scope): Promise<DocumentRecord | undefined> {
    return getDocument(this.db, documentId, scope);
  }

  listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]> {
    return listDocuments(this.db, scopes);
  }

  getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
    return getParent(this.db, parentId, scopes);
  }

  search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    return searchChunks(this.store, this.live, query, options);
  }

  async ensureEmbedding(info: IndexEmbeddingInfo): Promise<void> {
    if (info.model === null) return;
    this.db.transaction(() =>
      checkEmbedding(this.store, { model: info.model!, dimension: info.dimension }, true),
    )();
  }

  /** Saves the live snapshot when it is current and not yet saved (so the next start loads it), then closes. */
  async close(): Promise<void> {
    const live = this.live;
    if (live.closed) return;
    live.closed = true;
    await live.building?.catch(() => {});
    await live.saving;
    if (this.db.open && live.snapshot && live.snapshotVersion === dataVersion(this.db)) {
      const generation = writeGeneration(this.db);
      if (generation !== live.savedGeneration) await saveSnapshot(live, live.snapshot, generation);
    }
    if (this.db.open) this.db.close();
  }

  /** Starts building the search snapshot in the background (at start); failures are logged. */
  warmUp(): void {
    warmUp(this.live);
  }

  /** For benchmarks and diagnostics: whether searches are served without waiting, and its memory. */
  snapshotStats(): { ready: boolean; children: number; segments: number; bytes: number } {
    return snapshotStats(this.live);
  }

  /** Every document of every scope (for `ragent reindex` and diagnostics). */
  listAllDocuments(): Promise<DocumentRecord[]> {
    return listAllDocuments(this.db);
  }

  /** A document with its stored parents and children (their text), or undefined. */
  readDocument(documentId: string, scope: Scope): Promise<StoredDocument | undefined> {
    return readDocument(this.db, documentId, scope);
  }

  /**
   * Drops every dense vector in one transaction (the index becomes BM25-only, consistent and
   * searchable), so that documents can be embedded again with another model one at a time.
   */
  dropDenseVectors(): Promise<number> {
    return dropDenseVectors(this.store, this.live);
  }

  /** Children in the index (all scopes) — for benchmarks and diagnostics. */
  childCount(): number {
    return childCount(this.db);
  }
}

/**
 * The embedded index: one SQLite file (WAL) holding documents, parents, children and their vectors
 * (sparse + int8; no float32 copy is stored, it was never read), plus the same vectors stored
 * contiguously in the compact vector table (vector-pages.ts), which a load without a saved snapshot
 * reads instead of every child row; a file written before that table gets it at open.
 * Writes are single transactions (a document is visible whole or not at all; a killed process leaves
 * the previous state). Reads go through an in-memory `SearchSnapshot`: built in the background in
 * slices that yield to the event loop (`warmUp` at start, or on the first search, which waits for it);
 * a local write updates it in place (a small segment for the new children, deleted ones marked), and
 * the segments are merged back by a background rebuild when there are too many. A write by another
 * process (`PRAGMA data_version` changes) makes the next search wait for a fresh build. A search scans
 * the segments in slices too (`sliceMs`), and starts over when a write lands between two of them.
 * Memory-mapped I/O stays off (`mmap_size = 0`), and the file, its WAL and shared-memory files are
 * checked for writability at open, so a read-only or vanished data dir is a clear error rather than a
 * SIGBUS. (SQLite still maps the small `-shm` wal-index; Node cannot catch a SIGBUS there.)
 * Documents are keyed by (scope, id): the same bytes may live in two workspaces, never shared.
 * Search ranks `candidatePoolSize(k)` candidates and keeps at most two children per parent
 * (`limitPerParent`, shared with the Qdrant backend).
 */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { ChildChunk, DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { RagentError } from '../errors.ts';
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
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { documentChanged } from './document-changed.ts';
import { embeddingMismatchError } from './embedding-mismatch.ts';
import { reciprocalRankFusion } from './fusion.ts';
import { moveSourceMissing, moveTargetTaken, moveToSameScope } from './move-errors.ts';
import {
  buildSegment,
  buildSegmentFromPages,
  buildSegmentNow,
  type Pause,
  runSteps,
  runStepsNow,
  ScopeTable,
  type Scored,
  SearchSnapshot,
  type SnapshotRow,
  type SnapshotSegment,
  slicePause,
} from './search-snapshot.ts';
import { readSnapshotFile, writeSnapshotFile } from './snapshot-file.ts';
import { addedColumns, schema, schemaVersion } from './sqlite-schema.ts';
import { encodeQuantizedBlob, encodeSparseBlob, normalized } from './vector-codec.ts';
import {
  deleteVectorPages,
  dropDenseFromPages,
  insertVectorPages,
  markVectorPagesCurrent,
  type PageTuple,
  rebuildVectorPages,
  selectPages,
  slicePage,
  toVectorPage,
  type VectorPage,
  vectorPagesCurrent,
  vectorPagesSchema,
} from './vector-pages.ts';

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

/** The steps of a move, each one statement of the same transaction. */
export type MoveStep = 'document' | 'parents' | 'children';

/** What one committed write changed, for the in-memory snapshot. */
interface SnapshotWrite {
  deleted: number[];
  rows: SnapshotRow[];
}

class BuildCancelled extends Error {}

interface ChildRow {
  key: number;
  scope: string;
  id: string;
  document_id: string;
  document_name: string;
  parent_id: string;
  page_start: number;
  page_end: number;
  section_path: string;
  text: string;
}

interface ParentRow {
  scope: string;
  id: string;
  document_id: string;
  document_name: string;
  page_start: number;
  page_end: number;
  section_path: string;
  text: string;
}

interface DocumentRow {
  scope: string;
  id: string;
  name: string;
  pages: number;
  bytes: number;
  parents: number;
  children: number;
  uploader: string;
  ingested_at: string;
  embedding_model: string | null;
  /** Null for documents ingested without a link, and in files written before the column. */
  link: string | null;
  /** Null for documents written before sparse weights were versioned (version 1). */
  sparse_weights_version: number | null;
}

/** How deep each ranking goes before fusion. */
const fusionDepth = (k: number) => Math.max(k * 4, 40);

export function openSqliteChunkIndex(options: SqliteChunkIndexOptions): SqliteChunkIndex {
  return new SqliteChunkIndex(options);
}

export class SqliteChunkIndex implements ChunkIndex {
  readonly file: string;
  private readonly db: Database.Database;
  private readonly logger: Logger | undefined;
  private readonly exactLimit: number;
  private readonly rescoreCandidates: number;
  private readonly sliceMs: number;
  private readonly maxSegments: number;
  private readonly segmentRows: number;
  private readonly beforeMoveStep: (step: MoveStep) => void;
  private readonly loadFrom: 'pages' | 'rows';
  /** Segments the last load produced (later writes add one each). */
  private loadedSegments = 1;
  private snapshot: SearchSnapshot | undefined;
  /** The main connection's `data_version` the live snapshot reflects. */
  private snapshotVersion = -1;
  private building: Promise<void> | undefined;
  /** Local writes committed while a build runs, replayed onto its result. */
  private writesDuringBuild: SnapshotWrite[] | undefined;
  /** Bumped when every vector changes at once; a build started before it is thrown away. */
  private generation = 0;
  private closed = false;
  /** The write generation of the snapshot file last saved by this process. */
  private savedGeneration: string | undefined;
  private saving: Promise<void> | undefined;
  private readonly snapshotFile: string;

  constructor(options: SqliteChunkIndexOptions) {
    this.file = options.file;
    this.logger = options.logger;
    this.exactLimit = options.exactLimit ?? 5_000;
    this.rescoreCandidates = options.rescoreCandidates ?? 400;
    this.sliceMs = options.sliceMs ?? 10;
    this.maxSegments = options.maxSegments ?? 16;
    this.segmentRows = options.segmentRows ?? 65_536;
    this.beforeMoveStep = options.beforeMoveStep ?? (() => {});
    this.loadFrom = options.loadFrom ?? 'pages';
    this.db = openWritable(this.file);
    this.snapshotFile = `${this.file}.snapshot`;
    const version = this.meta('schema_version');
    if (version === undefined) this.setMeta('schema_version', schemaVersion);
    else if (version !== schemaVersion) {
      throw new RagentError(
        'INDEX_SCHEMA_MISMATCH',
        `The index at ${this.file} has format ${version}; this ragent uses ${schemaVersion}. ` +
          'Delete that file and ingest your documents again.',
      );
    }
    this.ensureVectorPages(options.onVectorPagesRebuilt);
  }

  /**
   * Brings the compact vector table up to date when it is not (a file written before it existed, or
   * written since by an earlier version), in one transaction. A failure leaves the file as it was: it is
   * logged, and the search snapshot is loaded from the children rows until a later open succeeds.
   */
  private ensureVectorPages(onDocument?: (documents: number) => void): void {
    if (vectorPagesCurrent(this.db)) return;
    const started = performance.now();
    try {
      const documents = rebuildVectorPages(this.db, onDocument);
      this.logger?.info(
        { documents, ms: Math.round(performance.now() - started) },
        'index migrated: compact vector table built',
      );
    } catch (error) {
      this.logger?.warn({ err: error }, 'could not build the compact vector table; loading from the rows');
    }
  }

  async replaceDocument(input: ReplaceDocumentInput): Promise<void> {
    const { document, parents, children } = input;
    const dimension = this.denseDimensionOf(input);
    const insertParent = this.db.prepare(
      `INSERT INTO parents (scope, id, document_id, document_name, page_start, page_end, section_path, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertChild = this.db.prepare(
      `INSERT INTO children (scope, id, document_id, document_name, parent_id, page_start, page_end,
         section_path, sparse, quantized, text, dense)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const deleted: number[] = [];
    const rows: SnapshotRow[] = [];
    const write = this.db.transaction(() => {
      if (input.onlyIfCurrent) this.checkCurrent(document);
      this.bumpWriteGeneration();
      deleted.length = 0;
      rows.length = 0;
      for (const id of new Set([document.id, ...(input.replaces ?? [])]))
        deleted.push(...this.deleteDocument(id, document.scope));
      if (dimension !== null) {
        this.checkEmbedding({ model: document.embeddingModel ?? 'unknown', dimension }, true);
      }
      this.db
        .prepare(
          `INSERT INTO documents (scope, id, name, pages, bytes, parents, children, uploader, ingested_at,
             embedding_model, link, sparse_weights_version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          document.scope,
          document.id,
          document.name,
          document.pages,
          document.bytes,
          document.parents,
          document.children,
          document.uploader,
          document.ingestedAt,
          dimension === null ? null : document.embeddingModel,
          document.link ?? null,
          document.sparseWeightsVersion ?? null,
        );
      for (const parent of parents) {
        insertParent.run(
          document.scope,
          parent.id,
          document.id,
          document.name,
          parent.pageStart,
          parent.pageEnd,
          JSON.stringify(parent.sectionPath),
          parent.text,
        );
      }
      for (const child of children) {
        const quantized = child.dense ? encodeQuantizedBlob(normalized(child.dense)) : null;
        const sparse = encodeSparseBlob(child.sparse);
        const { lastInsertRowid } = insertChild.run(
          document.scope,
          child.id,
          document.id,
          document.name,
          child.parentId,
          child.pageStart,
          child.pageEnd,
          JSON.stringify(child.sectionPath),
          sparse,
          quantized,
          child.text,
          null,
        );
        rows.push({ rowid: Number(lastInsertRowid), scope: document.scope, sparse, quantized });
      }
      insertVectorPages(
        this.db,
        document.scope,
        document.id,
        rows.map((row) => ({ key: row.rowid, sparse: row.sparse, quantized: row.quantized })),
      );
    });
    this.guardWrite(write);
    this.applyWrite({ deleted, rows });
    this.logger?.debug(
      { documentId: document.id, scope: document.scope, children: children.length },
      'indexed',
    );
  }

  async removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    const deleted = this.guardWrite(
      this.db.transaction(() => {
        this.bumpWriteGeneration();
        return this.deleteDocument(documentId, scope);
      }),
    );
    this.applyWrite({ deleted, rows: [] });
    return this.lastDeleteFoundDocument;
  }

  /**
   * One transaction re-scopes the document's rows (its record with uploader and link, parents,
   * children with their vectors): nothing is extracted or embedded again, and a search sees the
   * document in exactly one of the two scopes whatever stops the transaction.
   */
  async moveDocument(documentId: string, from: Scope, to: Scope): Promise<MoveOutcome> {
    if (from === to) throw moveToSameScope(from);
    let moved: DocumentRecord | undefined;
    const deleted: number[] = [];
    const rows: SnapshotRow[] = [];
    const write = this.db.transaction(() => {
      deleted.length = 0;
      rows.length = 0;
      const row = this.db
        .prepare('SELECT * FROM documents WHERE scope = ? AND id = ?')
        .get(from, documentId) as DocumentRow | undefined;
      if (!row) throw moveSourceMissing(documentId, from);
      const taken = this.db
        .prepare('SELECT name FROM documents WHERE scope = ? AND (name = ? OR id = ?) ORDER BY name = ? DESC')
        .get(to, row.name, documentId, row.name) as { name: string } | undefined;
      if (taken) throw moveTargetTaken(row.name, to, taken);
      this.bumpWriteGeneration();
      this.beforeMoveStep('document');
      this.db.prepare('UPDATE documents SET scope = ? WHERE scope = ? AND id = ?').run(to, from, documentId);
      this.beforeMoveStep('parents');
      this.db
        .prepare('UPDATE parents SET scope = ? WHERE scope = ? AND document_id = ?')
        .run(to, from, documentId);
      this.beforeMoveStep('children');
      deleted.push(
        ...(this.db
          .prepare('SELECT key FROM children WHERE scope = ? AND document_id = ?')
          .pluck()
          .all(from, documentId) as number[]),
      );
      this.db
        .prepare('UPDATE children SET scope = ? WHERE scope = ? AND document_id = ?')
        .run(to, from, documentId);
      // The compact vector table carries the scope too: a cold load must find the children in their new set.
      this.db
        .prepare('UPDATE vector_pages SET scope = ? WHERE scope = ? AND document_id = ?')
        .run(to, from, documentId);
      // The snapshot marks the rows deleted and adds them again under their new scope (same keys).
      const tuples = this.db
        .prepare('SELECT key, scope, sparse, quantized FROM children WHERE scope = ? AND document_id = ?')
        .raw()
        .all(to, documentId) as Array<[number, string, Uint8Array | null, Uint8Array | null]>;
      for (const [rowid, scope, sparse, quantized] of tuples) rows.push({ rowid, scope, sparse, quantized });
      moved = toDocument({ ...row, scope: to });
    });
    this.guardWrite(write);
    this.applyWrite({ deleted, rows });
    this.logger?.debug({ documentId, from, to, children: rows.length }, 'moved');
    return { document: moved!, cleanUpPending: false };
  }

  async getDocument(documentId: string, scope: Scope): Promise<DocumentRecord | undefined> {
    const row = this.db
      .prepare('SELECT * FROM documents WHERE scope = ? AND id = ?')
      .get(scope, documentId) as DocumentRow | undefined;
    return row ? toDocument(row) : undefined;
  }

  async listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]> {
    if (scopes.length === 0) return [];
    const rows = this.db
      .prepare(
        'SELECT * FROM documents WHERE scope IN (SELECT value FROM json_each(?)) ORDER BY name, ingested_at',
      )
      .all(JSON.stringify(scopes)) as DocumentRow[];
    return rows.map(toDocument);
  }

  async getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
    if (scopes.length === 0) return undefined;
    const row = this.db
      .prepare(
        'SELECT * FROM parents WHERE id = ? AND scope IN (SELECT value FROM json_each(?)) ORDER BY scope LIMIT 1',
      )
      .get(parentId, JSON.stringify(scopes)) as ParentRow | undefined;
    return row ? toParent(row) : undefined;
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    const k = Math.floor(options.k);
    if (options.scopes.length === 0 || k <= 0) return [];
    const dimension = this.recordedDimension();
    if (query.dense && dimension !== null && query.dense.length !== dimension) {
      throw this.mismatch(
        this.recordedModel() ?? 'unknown',
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
      const snapshot = await this.currentSnapshot();
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
      [sparse, dense] = await runSteps(steps, slicePause(this.sliceMs));
      if (snapshot === this.snapshot && snapshot.changes === changes) break;
    }
    let ranked: Scored[];
    if (sparse.length > 0 && dense.length > 0) {
      ranked = reciprocalRankFusion(
        [sparse.map((hit) => hit.rowid), dense.map((hit) => hit.rowid)],
        pool,
      ).map(({ key, score }) => ({ rowid: key, score }));
    } else {
      ranked = (sparse.length > 0 ? sparse : dense).slice(0, pool);
    }
    return limitPerParent(this.hitsFor(ranked, options.scopes), k);
  }

  async ensureEmbedding(info: IndexEmbeddingInfo): Promise<void> {
    if (info.model === null) return;
    this.db.transaction(() => this.checkEmbedding({ model: info.model!, dimension: info.dimension }, true))();
  }

  /** Saves the live snapshot when it is current and not yet saved (so the next start loads it), then closes. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.building?.catch(() => {});
    await this.saving;
    if (this.db.open && this.snapshot && this.snapshotVersion === this.dataVersion()) {
      const generation = this.writeGeneration();
      if (generation !== this.savedGeneration) await this.saveSnapshot(this.snapshot, generation);
    }
    if (this.db.open) this.db.close();
  }

  /** Starts building the search snapshot in the background (at start); failures are logged. */
  warmUp(): void {
    if (this.closed || this.building || this.snapshot) return;
    const started = performance.now();
    this.rebuild().then(
      () =>
        this.logger?.info(
          { children: this.snapshot?.size ?? 0, ms: Math.round(performance.now() - started) },
          'search index loaded',
        ),
      (error: unknown) => {
        if (!(error instanceof BuildCancelled))
          this.logger?.error({ err: error }, 'loading the search index failed');
      },
    );
  }

  /** For benchmarks and diagnostics: whether searches are served without waiting, and its memory. */
  snapshotStats(): { ready: boolean; children: number; segments: number; bytes: number } {
    const snapshot = this.snapshot;
    return {
      ready: snapshot !== undefined && !this.closed,
      children: snapshot?.size ?? 0,
      segments: snapshot?.segments.length ?? 0,
      bytes: snapshot?.byteSize() ?? 0,
    };
  }

  /** Every document of every scope (for `ragent reindex` and diagnostics). */
  async listAllDocuments(): Promise<DocumentRecord[]> {
    const rows = this.db.prepare('SELECT * FROM documents ORDER BY scope, name').all() as DocumentRow[];
    return rows.map(toDocument);
  }

  /** A document with its stored parents and children (their text), or undefined. */
  async readDocument(documentId: string, scope: Scope): Promise<StoredDocument | undefined> {
    const document = await this.getDocument(documentId, scope);
    if (!document) return undefined;
    const parents = this.db
      .prepare('SELECT * FROM parents WHERE scope = ? AND document_id = ? ORDER BY rowid')
      .all(scope, documentId) as ParentRow[];
    const children = this.db
      .prepare(
        `SELECT key, scope, id, document_id, document_name, parent_id, page_start, page_end, section_path, text
         FROM children WHERE scope = ? AND document_id = ? ORDER BY key`,
      )
      .all(scope, documentId) as ChildRow[];
    return { document, parents: parents.map(toParent), children: children.map(toChild) };
  }

  /**
   * Drops every dense vector in one transaction (the index becomes BM25-only, consistent and
   * searchable), so that documents can be embedded again with another model one at a time.
   */
  async dropDenseVectors(): Promise<number> {
    const changed = this.db.transaction(() => {
      this.bumpWriteGeneration();
      const { changes } = this.db
        .prepare(
          'UPDATE children SET quantized = NULL, dense = NULL WHERE quantized IS NOT NULL OR dense IS NOT NULL',
        )
        .run();
      dropDenseFromPages(this.db);
      this.db.prepare('UPDATE documents SET embedding_model = NULL').run();
      this.db.prepare("DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimension')").run();
      return changes;
    })();
    this.generation++;
    this.snapshot = undefined;
    return changed;
  }

  /** Throws DOCUMENT_CHANGED unless `document` (same id and ingest time) is still stored in its scope. */
  private checkCurrent(document: DocumentRecord): void {
    const ingestedAt = this.db
      .prepare('SELECT ingested_at FROM documents WHERE scope = ? AND id = ?')
      .pluck()
      .get(document.scope, document.id);
    if (ingestedAt !== document.ingestedAt) throw documentChanged(document);
  }

  /** Children in the index (all scopes) — for benchmarks and diagnostics. */
  childCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS count FROM children').get() as { count: number }).count;
  }

  private lastDeleteFoundDocument = false;

  /** Deletes a document's rows; returns the keys of its children (for the snapshot). */
  private deleteDocument(documentId: string, scope: Scope): number[] {
    const keys = this.db
      .prepare('SELECT key FROM children WHERE scope = ? AND document_id = ?')
      .pluck()
      .all(scope, documentId) as number[];
    this.db.prepare('DELETE FROM children WHERE scope = ? AND document_id = ?').run(scope, documentId);
    deleteVectorPages(this.db, scope, documentId);
    this.db.prepare('DELETE FROM parents WHERE scope = ? AND document_id = ?').run(scope, documentId);
    const { changes } = this.db
      .prepare('DELETE FROM documents WHERE scope = ? AND id = ?')
      .run(scope, documentId);
    if (!this.hasDenseVectors()) {
      this.db.prepare("DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimension')").run();
    }
    this.lastDeleteFoundDocument = changes > 0;
    return keys;
  }

  private denseDimensionOf(input: ReplaceDocumentInput): number | null {
    let dimension: number | null = null;
    for (const child of input.children) {
      if (!child.dense) continue;
      if (dimension === null) dimension = child.dense.length;
      else if (child.dense.length !== dimension) {
        throw new RagentError(
          'INDEX_MODEL_MISMATCH',
          `Chunks of ${input.document.name} have dense vectors of different sizes (${dimension} and ${child.dense.length}). ` +
            'Check OLLAMA_EMBED_MODEL and ingest the file again.',
        );
      }
    }
    if (dimension !== null && input.children.some((child) => !child.dense)) {
      throw new RagentError(
        'INVALID_INPUT',
        `Some chunks of ${input.document.name} have no dense vector. Ingest the file again.`,
      );
    }
    return dimension;
  }

  /** Compares with the recorded model; records it when the index holds no dense vectors yet. */
  private checkEmbedding(info: { model: string; dimension: number | null }, record: boolean): void {
    const model = this.recordedModel();
    const dimension = this.recordedDimension();
    const holdsVectors = this.hasDenseVectors();
    if (holdsVectors && model !== undefined) {
      if (
        model !== info.model ||
        (info.dimension !== null && dimension !== null && dimension !== info.dimension)
      ) {
        throw this.mismatch(model, dimension, info.model, info.dimension);
      }
      if (dimension === null && info.dimension !== null && record) {
        this.setMeta('embedding_dimension', String(info.dimension));
      }
      return;
    }
    if (!record || (model === info.model && dimension === info.dimension)) return;
    this.setMeta('embedding_model', info.model);
    if (info.dimension !== null) this.setMeta('embedding_dimension', String(info.dimension));
    else this.db.prepare("DELETE FROM meta WHERE key = 'embedding_dimension'").run();
  }

  private mismatch(
    indexModel: string,
    indexDimension: number | null,
    wantedModel: string,
    wantedDimension: number | null,
  ): RagentError {
    return embeddingMismatchError({
      index: `The index at ${this.file}`,
      indexModel,
      indexDimension,
      wantedModel,
      wantedDimension,
      reindex: 'run `ragent reindex` (it embeds every document again from the stored text).',
    });
  }

  private hasDenseVectors(): boolean {
    return this.db.prepare('SELECT 1 FROM children WHERE quantized IS NOT NULL LIMIT 1').get() !== undefined;
  }

  private recordedModel(): string | undefined {
    return this.meta('embedding_model');
  }

  private recordedDimension(): number | null {
    const value = this.meta('embedding_dimension');
    return value === undefined ? null : Number(value);
  }

  private meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  private setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  /** Runs a write transaction; a read-only, vanished or full disk becomes INDEX_NOT_WRITABLE. */
  private guardWrite<T>(write: () => T): T {
    try {
      return write();
    } catch (error) {
      if (isReadOnlyError(error)) throw notWritable(this.file, 'file', error);
      throw error;
    }
  }

  /** The live snapshot; waits for a build when there is none or another process wrote. */
  private async currentSnapshot(): Promise<SearchSnapshot> {
    for (;;) {
      const version = this.dataVersion();
      if (this.snapshot && version === this.snapshotVersion) return this.snapshot;
      this.snapshot = undefined;
      await this.rebuild();
      // The build's last slice and this search run as two turns of the event loop, not one.
      await nextTurn();
    }
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private rebuild(): Promise<void> {
    this.building ??= this.buildInBackground().finally(() => {
      this.building = undefined;
      this.writesDuringBuild = undefined;
    });
    return this.building;
  }

  /**
   * Reads every child through a second, read-only connection inside one read transaction (a consistent
   * picture while writes go on), in slices that yield to the event loop; then replays the local writes
   * committed meanwhile. Starts over when another process wrote during the build.
   */
  private async buildInBackground(): Promise<void> {
    // Not in the same turn of the event loop as the caller (often the index's opening, at start).
    await nextTurn();
    for (;;) {
      const started = performance.now();
      const generation = this.generation;
      // Taken before the read transaction starts: a write by another process in between makes this build
      // stale by `data_version`, and it starts over.
      const version = this.dataVersion();
      const reader = new Database(this.file, { readonly: true, fileMustExist: true });
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
        this.writesDuringBuild = [];
        const slice = slicePause(this.sliceMs);
        const pause: Pause = () => {
          if (this.closed) throw new BuildCancelled('closed');
          return slice();
        };
        loaded = await readSnapshotFile(
          this.snapshotFile,
          storeGeneration,
          this.snapshotOptions(),
          pause,
        ).catch((error: unknown) => {
          if (error instanceof BuildCancelled) throw error;
          this.logger?.warn({ err: error }, 'the saved search snapshot is unreadable; rebuilding it');
          return undefined;
        });
        const dimension = dimensionValue === undefined ? null : Number(dimensionValue);
        if (loaded) this.savedGeneration = storeGeneration;
        else if (this.loadFrom === 'pages' && vectorPagesCurrent(reader)) {
          loaded = await this.loadFromPages(reader, dimension, scopes, pause);
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
          for (let remaining = count; ; remaining -= this.segmentRows) {
            const segment = await buildSegment(take(rows, this.segmentRows), {
              dimension,
              scopes,
              expectedSize: Math.max(1, Math.min(remaining, this.segmentRows)),
              pause,
            });
            if (segment.size === 0) break;
            segments.push(segment);
            if (segment.size < this.segmentRows) break;
          }
          rows = undefined;
          loaded = new SearchSnapshot(scopes, segments, this.snapshotOptions());
        }
        reader.exec('COMMIT');
      } finally {
        rows?.return?.();
        reader.close();
      }
      if (this.closed) throw new BuildCancelled('closed');
      if (generation !== this.generation || version !== this.dataVersion()) continue;
      const snapshot = loaded;
      const replayed = this.writesDuringBuild ?? [];
      for (const write of replayed) this.applyTo(snapshot, write);
      this.loadedSegments = loaded.segments.length;
      this.snapshot = snapshot;
      this.snapshotVersion = version;
      if (replayed.length === 0 && this.savedGeneration !== storeGeneration) {
        this.saveSnapshot(snapshot, storeGeneration).catch(() => {});
      }
      this.logger?.debug(
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
  private async loadFromPages(
    reader: Database.Database,
    dimension: number | null,
    scopes: ScopeTable,
    pause: Pause,
  ): Promise<SearchSnapshot> {
    const count = (reader.prepare('SELECT SUM(count) FROM vector_pages').pluck().get() as number | null) ?? 0;
    const tuples = reader.prepare(selectPages).raw().iterate() as IterableIterator<PageTuple>;
    const segmentRows = this.segmentRows;
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
    return new SearchSnapshot(scopes, segments, this.snapshotOptions());
  }

  /**
   * Saves the snapshot for the next start, stamped with the store's write generation it reflects (any
   * later write makes the file stale). Failures only cost the next start a rebuild: they are logged.
   */
  private async saveSnapshot(snapshot: SearchSnapshot, generation: string): Promise<void> {
    this.saving ??= writeSnapshotFile(this.snapshotFile, snapshot, generation)
      .then(() => {
        this.savedGeneration = generation;
      })
      .catch((error: unknown) => {
        this.logger?.warn({ err: error }, 'could not save the search snapshot');
      })
      .finally(() => {
        this.saving = undefined;
      });
    return this.saving;
  }

  private writeGeneration(): string {
    return (
      (this.db.prepare("SELECT value FROM meta WHERE key = 'write_generation'").pluck().get() as
        | string
        | undefined) ?? '0'
    );
  }

  /**
   * Called inside every write transaction: the saved snapshot of an older generation is stale. The
   * vector table stays current when it was (this write updates it too).
   */
  private bumpWriteGeneration(): void {
    const pagesCurrent = vectorPagesCurrent(this.db);
    this.db
      .prepare(
        `INSERT INTO meta (key, value) VALUES ('write_generation', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
      )
      .run();
    if (pagesCurrent) markVectorPagesCurrent(this.db);
  }

  private snapshotOptions() {
    return { dimension: null, exactLimit: this.exactLimit, rescoreCandidates: this.rescoreCandidates };
  }

  /** Brings the live snapshot (and a build in progress) up to date with a committed local write. */
  private applyWrite(write: SnapshotWrite): void {
    this.writesDuringBuild?.push(write);
    const snapshot = this.snapshot;
    if (!snapshot) return;
    this.applyTo(snapshot, write);
    const deletedShare =
      1 - snapshot.size / snapshot.segments.reduce((sum, segment) => sum + segment.size, 0);
    const added = snapshot.segments.length - this.loadedSegments;
    if (!this.building && (added > this.maxSegments || deletedShare > 0.25)) {
      this.rebuild().catch((error: unknown) => {
        if (!(error instanceof BuildCancelled))
          this.logger?.error({ err: error }, 'merging the search index failed');
      });
    }
  }

  private applyTo(snapshot: SearchSnapshot, write: SnapshotWrite): void {
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

  /** The children of the ranked row ids, re-checked against the caller's scopes. */
  private hitsFor(ranked: Scored[], scopes: readonly Scope[]): SearchHit[] {
    if (ranked.length === 0) return [];
    const keys = ranked.map((hit) => hit.rowid);
    const rows = this.db
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
}

/**
 * Opens the index file for writing, with memory-mapped I/O off. A data dir or file that cannot be
 * written is a clear error here, not a crash (SIGBUS) at the first write.
 */
function addMissingColumns(db: Database.Database): void {
  for (const added of addedColumns) {
    const columns = db.prepare(`PRAGMA table_info(${added.table})`).all() as Array<{ name: string }>;
    if (columns.some((column) => column.name === added.column)) continue;
    db.exec(`ALTER TABLE ${added.table} ADD COLUMN ${added.column} ${added.definition}`);
  }
}

function openWritable(file: string): Database.Database {
  const directory = path.dirname(file);
  try {
    mkdirSync(directory, { recursive: true });
    accessSync(directory, constants.W_OK);
    for (const candidate of [file, `${file}-wal`, `${file}-shm`]) {
      if (existsSync(candidate)) accessSync(candidate, constants.R_OK | constants.W_OK);
    }
  } catch (error) {
    throw notWritable(file, 'directory or file', error);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma('mmap_size = 0');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    db.exec(schema);
    db.exec(vectorPagesSchema);
    addMissingColumns(db);
    return db;
  } catch (error) {
    db?.close();
    if (isReadOnlyError(error)) throw notWritable(file, 'file', error);
    throw error;
  }
}

function notWritable(file: string, what: string, cause: unknown): RagentError {
  return new RagentError(
    'INDEX_NOT_WRITABLE',
    `The index ${what} cannot be written (${file}). Give ragent write access to its data directory ` +
      '(RAGENT_DATA_DIR) and free disk space there, then try again.',
    { cause, details: { file } },
  );
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

function isReadOnlyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(READONLY|CANTOPEN|IOERR|PERM|FULL)/.test(code);
}

function toParent(row: ParentRow): ParentChunk {
  return {
    id: row.id,
    text: row.text,
    documentId: row.document_id,
    documentName: row.document_name,
    scope: row.scope,
    pageStart: row.page_start,
    pageEnd: row.page_end,
    sectionPath: JSON.parse(row.section_path) as string[],
  };
}

function toChild(row: ChildRow): ChildChunk {
  return { ...toParent(row), parentId: row.parent_id };
}

function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    pages: row.pages,
    bytes: row.bytes,
    parents: row.parents,
    children: row.children,
    uploader: row.uploader,
    ingestedAt: row.ingested_at,
    embeddingModel: row.embedding_model,
    ...(row.link ? { link: row.link } : {}),
    ...(row.sparse_weights_version === null ? {} : { sparseWeightsVersion: row.sparse_weights_version }),
  };
}

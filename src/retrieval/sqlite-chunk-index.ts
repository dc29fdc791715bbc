/**
 * The embedded index: one SQLite file (WAL) holding documents, parents, children and their vectors.
 * Writes are single transactions (a document is visible whole or not at all; a killed process leaves
 * the previous state). Reads go through an in-memory `SearchSnapshot` rebuilt after any write.
 * Documents are keyed by (scope, id): the same bytes may live in two workspaces, never shared.
 * Search ranks `candidatePoolSize(k)` candidates and keeps at most two children per parent
 * (`limitPerParent`, shared with the Qdrant backend).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ChildChunk, DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type {
  ChunkIndex,
  IndexEmbeddingInfo,
  ReplaceDocumentInput,
  SearchOptions,
  SearchQuery,
} from './chunk-index.ts';
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { embeddingMismatchError } from './embedding-mismatch.ts';
import { reciprocalRankFusion } from './fusion.ts';
import { type Scored, SearchSnapshot, type SnapshotRow } from './search-snapshot.ts';
import { schema, schemaVersion } from './sqlite-schema.ts';
import { encodeDenseBlob, encodeQuantizedBlob, encodeSparseBlob, normalized } from './vector-codec.ts';

export interface SqliteChunkIndexOptions {
  file: string;
  logger?: Logger;
  /** Dense vectors scanned exactly up to this count; above it, sign-bit pre-selection + int8 rescoring. */
  exactLimit?: number;
  rescoreCandidates?: number;
}

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
  private snapshot: SearchSnapshot | undefined;
  private snapshotVersion = -1;
  private localWrites = 0;
  private snapshotWrites = -1;

  constructor(options: SqliteChunkIndexOptions) {
    this.file = options.file;
    this.logger = options.logger;
    this.exactLimit = options.exactLimit ?? 5_000;
    this.rescoreCandidates = options.rescoreCandidates ?? 400;
    mkdirSync(path.dirname(this.file), { recursive: true });
    this.db = new Database(this.file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 10000');
    this.db.exec(schema);
    const version = this.meta('schema_version');
    if (version === undefined) this.setMeta('schema_version', schemaVersion);
    else if (version !== schemaVersion) {
      throw new RagentError(
        'INDEX_SCHEMA_MISMATCH',
        `The index at ${this.file} has format ${version}; this ragent uses ${schemaVersion}. ` +
          'Delete that file and ingest your documents again.',
      );
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
    const write = this.db.transaction(() => {
      for (const id of new Set([document.id, ...(input.replaces ?? [])]))
        this.deleteDocument(id, document.scope);
      if (dimension !== null) {
        this.checkEmbedding({ model: document.embeddingModel ?? 'unknown', dimension }, true);
      }
      this.db
        .prepare(
          `INSERT INTO documents (scope, id, name, pages, bytes, parents, children, uploader, ingested_at,
             embedding_model) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
        const dense = child.dense ? normalized(child.dense) : undefined;
        insertChild.run(
          document.scope,
          child.id,
          document.id,
          document.name,
          child.parentId,
          child.pageStart,
          child.pageEnd,
          JSON.stringify(child.sectionPath),
          encodeSparseBlob(child.sparse),
          dense ? encodeQuantizedBlob(dense) : null,
          child.text,
          dense ? encodeDenseBlob(dense) : null,
        );
      }
    });
    write();
    this.localWrites++;
    this.logger?.debug(
      { documentId: document.id, scope: document.scope, children: children.length },
      'indexed',
    );
  }

  async removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    const removed = this.db.transaction(() => this.deleteDocument(documentId, scope))();
    this.localWrites++;
    return removed;
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
    const snapshot = this.currentSnapshot();
    const allowed = snapshot.allowedScopes(options.scopes);
    if (!allowed.includes(1)) return [];
    const pool = candidatePoolSize(k);
    const depth = fusionDepth(pool);
    const sparse = query.sparse.indices.length > 0 ? snapshot.searchSparse(query.sparse, allowed, depth) : [];
    const dense = query.dense ? snapshot.searchDense(normalized(query.dense), allowed, depth) : [];
    let ranked: Scored[];
    if (sparse.length > 0 && dense.length > 0) {
      ranked = reciprocalRankFusion(
        [sparse.map((hit) => hit.position), dense.map((hit) => hit.position)],
        pool,
      ).map(({ key, score }) => ({ position: key, score }));
    } else {
      ranked = (sparse.length > 0 ? sparse : dense).slice(0, pool);
    }
    return limitPerParent(this.hitsFor(snapshot, ranked), k);
  }

  async ensureEmbedding(info: IndexEmbeddingInfo): Promise<void> {
    if (info.model === null) return;
    this.db.transaction(() => this.checkEmbedding({ model: info.model!, dimension: info.dimension }, true))();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Children in the index (all scopes) — for benchmarks and diagnostics. */
  childCount(): number {
    return (this.db.prepare('SELECT COUNT(*) AS count FROM children').get() as { count: number }).count;
  }

  private deleteDocument(documentId: string, scope: Scope): boolean {
    this.db.prepare('DELETE FROM children WHERE scope = ? AND document_id = ?').run(scope, documentId);
    this.db.prepare('DELETE FROM parents WHERE scope = ? AND document_id = ?').run(scope, documentId);
    const { changes } = this.db
      .prepare('DELETE FROM documents WHERE scope = ? AND id = ?')
      .run(scope, documentId);
    if (!this.hasDenseVectors()) {
      this.db.prepare("DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimension')").run();
    }
    return changes > 0;
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
      reindex: 'remove the documents (`ragent docs remove`) or delete that file, then ingest them again.',
    });
  }

  private hasDenseVectors(): boolean {
    return this.db.prepare('SELECT 1 FROM children WHERE dense IS NOT NULL LIMIT 1').get() !== undefined;
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

  private currentSnapshot(): SearchSnapshot {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.snapshot && version === this.snapshotVersion && this.localWrites === this.snapshotWrites) {
      return this.snapshot;
    }
    const started = performance.now();
    const dimension = this.recordedDimension();
    const denseCount = (
      this.db.prepare('SELECT COUNT(*) AS count FROM children WHERE dense IS NOT NULL').get() as {
        count: number;
      }
    ).count;
    const exact = denseCount <= this.exactLimit;
    const rows = this.db
      .prepare(
        `SELECT key AS rowid, scope, sparse, ${exact ? 'NULL AS quantized, dense' : 'quantized, NULL AS dense'}
         FROM children ORDER BY key`,
      )
      .iterate() as IterableIterator<SnapshotRow>;
    this.snapshot = new SearchSnapshot(rows, {
      dimension,
      exactLimit: this.exactLimit,
      rescoreCandidates: this.rescoreCandidates,
    });
    this.snapshotVersion = version;
    this.snapshotWrites = this.localWrites;
    this.logger?.debug(
      { children: this.snapshot.size, ms: Math.round(performance.now() - started) },
      'search snapshot built',
    );
    return this.snapshot;
  }

  private hitsFor(snapshot: SearchSnapshot, ranked: Scored[]): SearchHit[] {
    if (ranked.length === 0) return [];
    const keys = ranked.map((hit) => snapshot.rowidAt(hit.position));
    const rows = this.db
      .prepare(
        `SELECT key, scope, id, document_id, document_name, parent_id, page_start, page_end, section_path, text
         FROM children WHERE key IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(keys)) as ChildRow[];
    const byKey = new Map(rows.map((row) => [row.key, row]));
    const hits: SearchHit[] = [];
    ranked.forEach((hit, index) => {
      const row = byKey.get(keys[index]!);
      if (row) hits.push({ child: toChild(row), score: hit.score });
    });
    return hits;
  }
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
  };
}

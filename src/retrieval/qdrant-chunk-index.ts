/**
 * The Qdrant backend of `ChunkIndex` (QDRANT_URL). This class holds what it learns of the collection
 * (its dense size) and the write locks, and delegates each part to the file named after it:
 * - qdrant-points.ts: how documents, parents and children map to points (one collection, `payload.kind`);
 * - qdrant-collection.ts: the collection's layout, creation, payload indexes and embedding model (and
 *   the drop of the dense vectors before re-embedding with another model of the same size);
 * - qdrant-commit.ts: the versioned commit of a document, correct under failure;
 * - qdrant-live-reads.ts: which version of each file is live (majority reads);
 * - qdrant-sweep.ts: the leftovers of interrupted writes, swept before a write and at open;
 * - qdrant-move.ts and qdrant-remove.ts: the atomic move between scopes, and removal;
 * - qdrant-search.ts and qdrant-documents.ts: search (sparse + dense, RRF), parents, document records,
 *   and a document read back whole for `ragent reindex`;
 * - qdrant-write-locks.ts: writes of one (scope, name) take turns, across replicas too;
 * - qdrant-connection.ts: the client, and how failures become QDRANT_* errors.
 */
import type { DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { describeError } from '../errors.ts';
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
import { moveSourceMissing, moveToSameScope } from './move-errors.ts';
import {
  bm25OnlyCollection,
  type CollectionSettings,
  createCollection,
  dropDenseVectors,
  ensureEmbedding,
  readDenseSize,
} from './qdrant-collection.ts';
import { denseDimension, writeVersion } from './qdrant-commit.ts';
import { connectQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { listLiveDocuments, readDocumentRecord, readStoredDocument } from './qdrant-documents.ts';
import { moveDocument, stillIn } from './qdrant-move.ts';
import { removeNamed } from './qdrant-remove.ts';
import { readParent, searchChunks } from './qdrant-search.ts';
import { sweep } from './qdrant-sweep.ts';
import { type WithNameLock, WriteLocks } from './qdrant-write-locks.ts';

export interface QdrantChunkIndexOptions extends CollectionSettings {
  url: string;
  apiKey: string | undefined;
  collection: string;
  logger?: Logger;
  /** Points per upsert request. */
  batchSize?: number;
  /** Runs a write of one (scope, file name) exclusively across processes (e.g. a PostgreSQL lock). */
  withNameLock?: WithNameLock;
  /** Chunks of no live version are swept at open only once this old (default 6 h). */
  sweepGraceMs?: number;
}

export async function openQdrantChunkIndex(options: QdrantChunkIndexOptions): Promise<QdrantChunkIndex> {
  const index = new QdrantChunkIndex(options);
  await index.connect();
  return index;
}

export class QdrantChunkIndex implements ChunkIndex {
  private readonly connection: QdrantConnection;
  private readonly options: QdrantChunkIndexOptions;
  private readonly locks: WriteLocks;
  /** Dense size of the collection; null = BM25 only; undefined = no collection yet. */
  private denseSize: number | null | undefined;
  private swept = false;

  constructor(options: QdrantChunkIndexOptions) {
    this.options = options;
    this.connection = connectQdrant(options);
    this.locks = new WriteLocks(options.withNameLock);
  }

  /** Reads the collection's layout (if it exists), so that unreachable servers fail at start-up. */
  async connect(): Promise<void> {
    const denseSize = await readDenseSize(this.connection);
    if (denseSize !== undefined) this.denseSize = denseSize;
    if (this.denseSize !== undefined && !this.swept) {
      this.swept = true;
      await sweep(this.connection, undefined, this.options.sweepGraceMs ?? 6 * 60 * 60 * 1000).catch(
        (error: unknown) =>
          this.options.logger?.warn(
            { error: describeError(error) },
            'sweeping leftovers of interrupted Qdrant writes failed; retried at the next start',
          ),
      );
    }
  }

  async replaceDocument(input: ReplaceDocumentInput): Promise<void> {
    const { document, children } = input;
    const dimension = denseDimension(input);
    await this.ensureCollection(dimension);
    if (dimension !== null) {
      await this.ensureEmbedding({ model: document.embeddingModel ?? 'unknown', dimension });
    }
    const scope = document.scope;
    await this.locks.exclusive(scope, document.name, () => writeVersion(this.connection, input));
    this.options.logger?.debug(
      { documentId: document.id, scope, children: children.length },
      'indexed in Qdrant',
    );
  }

  async removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    if (!(await this.hasCollection())) return false;
    const existing = await this.getDocument(documentId, scope);
    if (!existing) return false;
    await this.locks.exclusive(scope, existing.name, () =>
      removeNamed(this.connection, scope, existing.name),
    );
    return true;
  }

  async moveDocument(documentId: string, from: Scope, to: Scope): Promise<MoveOutcome> {
    if (from === to) throw moveToSameScope(from);
    if (!(await this.hasCollection())) throw moveSourceMissing(documentId, from);
    const found = await this.getDocument(documentId, from).catch((error: unknown) => {
      throw stillIn(error, documentId.slice(0, 12), from);
    });
    if (!found) throw moveSourceMissing(documentId, from);
    return moveDocument(this.connection, this.locks, { documentId, name: found.name, from, to });
  }

  async getDocument(documentId: string, scope: Scope): Promise<DocumentRecord | undefined> {
    if (!(await this.hasCollection())) return undefined;
    return readDocumentRecord(this.connection, documentId, scope);
  }

  /** The live version with its parents and children as ingested (`ragent reindex`). */
  async readDocument(documentId: string, scope: Scope): Promise<StoredDocument | undefined> {
    if (!(await this.hasCollection())) return undefined;
    return readStoredDocument(this.connection, documentId, scope);
  }

  async listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]> {
    if (scopes.length === 0 || !(await this.hasCollection())) return [];
    return listLiveDocuments(this.connection, scopes);
  }

  async listAllDocuments(): Promise<DocumentRecord[]> {
    if (!(await this.hasCollection())) return [];
    return listLiveDocuments(this.connection, undefined);
  }

  async getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
    if (scopes.length === 0 || !(await this.hasCollection())) return undefined;
    return readParent(this.connection, parentId, scopes);
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    if (options.scopes.length === 0 || Math.floor(options.k) <= 0 || !(await this.hasCollection())) return [];
    return searchChunks(this.connection, this.denseSize ?? null, query, options);
  }

  async ensureEmbedding(info: IndexEmbeddingInfo): Promise<void> {
    await ensureEmbedding(
      this.connection,
      { denseSize: this.denseSize, hasCollection: () => this.hasCollection() },
      info,
    );
  }

  /** Drops every child's dense vector before re-embedding with `next` (same size only; see qdrant-collection.ts). */
  async dropDenseVectors(next: IndexEmbeddingInfo): Promise<number> {
    return dropDenseVectors(
      this.connection,
      { denseSize: this.denseSize, hasCollection: () => this.hasCollection() },
      next,
    );
  }

  async close(): Promise<void> {}

  private async hasCollection(): Promise<boolean> {
    if (this.denseSize !== undefined) return true;
    await this.connect();
    return this.denseSize !== undefined;
  }

  private async ensureCollection(dimension: number | null): Promise<void> {
    if (!(await this.hasCollection())) {
      if (await createCollection(this.connection, this.options, dimension)) {
        this.denseSize = dimension;
        return;
      }
      await this.connect();
    }
    if (dimension !== null && this.denseSize === null) throw bm25OnlyCollection(this.connection.collection);
  }
}

/**
 * The Qdrant backend (QDRANT_URL). One collection holds everything, told apart by `payload.kind`:
 * - `child` points carry the named dense vector `dense` (cosine) and the named sparse vector `bm25`
 *   (`modifier: idf`, so Qdrant applies IDF to our BM25 document weights (bm25.ts));
 * - `parent`, `document` and one `meta` point (embedding model + dimension) carry payload only; the
 *   `document` point records the BM25 weights' `sparse_weights_version` (absent: written before it).
 * Payload indexes: scope, document_id, kind, version, parent_id, name, document_name.
 *
 * The commit, correct under failure. Qdrant applies one point's write atomically, but a batch runs its
 * operations one after another and never rolls back, so the commit is ONE point write:
 * 1. the new version's parents and children are upserted under a fresh `version` (UUID); every read
 *    filters on live versions, so they stay invisible;
 * 2. commit: the new `document` point is upserted (`ordering: strong`) with `generation` = one more than
 *    any document of that (scope, file name). Readers (`consistency: majority`) take, per (scope, name),
 *    only the highest generation as live — from this single write on, the new version is the one
 *    version searched, even while older document points still exist;
 * 3. clean-up: older document points of that name, then every chunk of that name not of the live
 *    version, are deleted. A failure here is logged as a warning, not reported as a failed write: the
 *    new version is live. Leftovers (of a failed clean-up, or of a process that died at any step) are
 *    swept before the next write of that (scope, name) and when the index is opened (chunks there only
 *    once older than `sweepGraceMs`, so a write in progress elsewhere is never swept away).
 * A commit request that fails is checked by reading the document back: it may have been applied.
 * A move to another scope (`moveDocument`) is the same commit, in the target scope, carrying a marker
 * that takes the source copy out of every read from that one write on.
 * Writes of one (scope, name) take turns: in this process, and across replicas through `withNameLock`
 * (a PostgreSQL lock when DATABASE_URL is set).
 *
 * Search over-fetches `candidatePoolSize(k)` points and keeps at most two children per parent
 * (`limitPerParent`, shared with the embedded store).
 *
 * Note: Qdrant computes IDF over the whole collection, the embedded store over the caller's scopes.
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
} from './chunk-index.ts';
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { moveSourceMissing, moveToSameScope } from './move-errors.ts';
import {
  bm25OnlyCollection,
  type CollectionSettings,
  createCollection,
  ensureEmbedding,
  qdrantMismatch,
  readDenseSize,
  readMeta,
} from './qdrant-collection.ts';
import { denseDimension, writeVersion } from './qdrant-commit.ts';
import { callQdrant, connectQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveDocuments, liveRead, liveVersions } from './qdrant-live-reads.ts';
import { moveDocument, stillIn } from './qdrant-move.ts';
import {
  denseName,
  location,
  type Payload,
  pointId,
  sparseName,
  splitLive,
  toChild,
  toDocument,
} from './qdrant-points.ts';
import { removeNamed } from './qdrant-remove.ts';
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

const fusionDepth = (k: number) => Math.max(k * 4, 40);
export async function openQdrantChunkIndex(options: QdrantChunkIndexOptions): Promise<QdrantChunkIndex> {
  const index = new QdrantChunkIndex(options);
  await index.connect();
  return index;
}

export class QdrantChunkIndex implements ChunkIndex {
  private readonly connection: QdrantConnection;
  private readonly client: QdrantConnection['client'];
  private readonly options: QdrantChunkIndexOptions;
  private readonly collection: string;
  private readonly locks: WriteLocks;
  /** Dense size of the collection; null = BM25 only; undefined = no collection yet. */
  private denseSize: number | null | undefined;
  private swept = false;

  constructor(options: QdrantChunkIndexOptions) {
    this.options = options;
    this.connection = connectQdrant(options);
    this.client = this.connection.client;
    this.collection = this.connection.collection;
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
    const [point] = await this.call('read', () =>
      this.client.retrieve(this.collection, {
        ids: [pointId(scope, 'document', documentId)],
        with_payload: true,
        ...liveRead,
      }),
    );
    const payload = point?.payload as Payload | undefined;
    if (payload?.kind !== 'document' || payload.scope !== scope) return undefined;
    // Outranked by a newer version of the same file (a clean-up still pending): not live.
    const named = await this.call('read', () => documentsNamed(this.connection, scope, String(payload.name)));
    const live = splitLive(named, new Set([scope])).live[0];
    return live && live.document_id === documentId ? toDocument(live) : undefined;
  }

  async listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]> {
    if (scopes.length === 0 || !(await this.hasCollection())) return [];
    const payloads = await liveDocuments(this.connection, scopes);
    return payloads
      .map(toDocument)
      .sort(
        (left, right) =>
          left.name.localeCompare(right.name) || left.ingestedAt.localeCompare(right.ingestedAt),
      );
  }

  async listAllDocuments(): Promise<DocumentRecord[]> {
    if (!(await this.hasCollection())) return [];
    const payloads = await liveDocuments(this.connection, undefined);
    return payloads
      .map(toDocument)
      .sort(
        (left, right) =>
          left.scope.localeCompare(right.scope) ||
          left.name.localeCompare(right.name) ||
          left.ingestedAt.localeCompare(right.ingestedAt),
      );
  }

  async getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
    if (scopes.length === 0 || !(await this.hasCollection())) return undefined;
    const versions = await liveVersions(this.connection, scopes);
    if (versions.length === 0) return undefined;
    const { points } = await this.call('read', () =>
      this.client.scroll(this.collection, {
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
    return { id: String(payload.parent_id), text: String(payload.text), ...location(payload) };
  }

  async search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]> {
    const k = Math.floor(options.k);
    if (options.scopes.length === 0 || k <= 0 || !(await this.hasCollection())) return [];
    const useSparse = query.sparse.indices.length > 0;
    const useDense = query.dense !== undefined && this.denseSize !== null && this.denseSize !== undefined;
    if (query.dense && this.denseSize && query.dense.length !== this.denseSize) {
      const meta = await readMeta(this.connection);
      throw qdrantMismatch(
        this.collection,
        meta?.model ?? 'unknown',
        this.denseSize,
        'the query embedder',
        query.dense.length,
      );
    }
    if (!useSparse && !useDense) return [];
    const versions = await liveVersions(this.connection, options.scopes);
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
    const result = await this.call('search', () => this.client.query(this.collection, request));
    const ranked = result.points.map((point) => ({
      child: toChild(point.payload as Payload),
      score: point.score,
    }));
    return limitPerParent(ranked, k);
  }

  async ensureEmbedding(info: IndexEmbeddingInfo): Promise<void> {
    await ensureEmbedding(
      this.connection,
      { denseSize: this.denseSize, hasCollection: () => this.hasCollection() },
      info,
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
    if (dimension !== null && this.denseSize === null) throw bm25OnlyCollection(this.collection);
  }

  private call<Result>(what: string, work: () => Promise<Result>): Promise<Result> {
    return callQdrant(this.connection, what, work);
  }
}

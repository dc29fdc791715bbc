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
import { describeError, RagentError } from '../errors.ts';
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
import { moveSourceMissing, moveTargetTaken, moveToSameScope } from './move-errors.ts';
import {
  bm25OnlyCollection,
  type CollectionSettings,
  createCollection,
  ensureEmbedding,
  qdrantMismatch,
  readDenseSize,
  readMeta,
} from './qdrant-collection.ts';
import { callQdrant, connectQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveDocuments, liveRead, liveVersions } from './qdrant-live-reads.ts';
import {
  chunkKinds,
  chunkPoints,
  denseName,
  documentPayload,
  location,
  type MovedFrom,
  movedFrom,
  type Payload,
  pointId,
  sparseName,
  splitLive,
  toChild,
  toDocument,
} from './qdrant-points.ts';
import { deleteMovedCopies, sweep } from './qdrant-sweep.ts';
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
    const dimension = children.find((child) => child.dense)?.dense?.length ?? null;
    if (dimension !== null && children.some((child) => child.dense?.length !== dimension)) {
      throw new RagentError(
        'INVALID_INPUT',
        `Some chunks of ${document.name} have no or other-sized dense vectors. Ingest the file again.`,
      );
    }
    await this.ensureCollection(dimension);
    if (dimension !== null) {
      await this.ensureEmbedding({ model: document.embeddingModel ?? 'unknown', dimension });
    }
    const scope = document.scope;
    await this.locks.exclusive(scope, document.name, async () => {
      await sweep(this.connection, { scope, name: document.name }, 0).catch((error: unknown) =>
        this.options.logger?.warn(
          { scope, name: document.name, error: describeError(error) },
          'sweeping leftovers before a write failed',
        ),
      );
      const version = crypto.randomUUID();
      const unchanged = 'the previous version (if any) is still the one searched';
      await this.call(`write the chunks of ${document.name} (${unchanged})`, () =>
        this.upsertChunks(input, version),
      );
      const existing = await documentsNamed(this.connection, scope, document.name).catch((error: unknown) =>
        this.call(`write ${document.name} (${unchanged})`, () =>
          Promise.reject(
            error instanceof RagentError && error.code === 'QDRANT_FAILED' ? error.cause : error,
          ),
        ),
      );
      const generation = nextGeneration(existing, scope);
      await this.commit(document, documentPayload(document, version, generation), unchanged);
      try {
        await sweep(this.connection, { scope, name: document.name }, 0, { ids: input.replaces ?? [] });
      } catch (error) {
        this.options.logger?.warn(
          { scope, name: document.name, documentId: document.id, error: describeError(error) },
          'the new version is live, but removing the old one failed; it is swept before the next write of this file and at start',
        );
      }
    });
    this.options.logger?.debug(
      { documentId: document.id, scope, children: children.length },
      'indexed in Qdrant',
    );
  }

  private async upsertChunks(input: ReplaceDocumentInput, version: string): Promise<void> {
    const points = chunkPoints(input, version, Date.now());
    const size = this.connection.batchSize;
    for (let start = 0; start < points.length; start += size) {
      await this.client.upsert(this.collection, { wait: true, points: points.slice(start, start + size) });
    }
  }

  /** The one write that makes `version` live. A failed request may still have been applied: read back. */
  private async commit(document: DocumentRecord, payload: Payload, unchanged: string): Promise<void> {
    const id = pointId(document.scope, 'document', document.id);
    const version = payload.version;
    try {
      await this.client.upsert(this.collection, {
        wait: true,
        ordering: 'strong',
        points: [{ id, vector: {}, payload }],
      });
    } catch (error) {
      const applied = await this.client
        .retrieve(this.collection, { ids: [id], with_payload: true, ...liveRead })
        .then(([point]) => (point?.payload as Payload | undefined)?.version === version)
        .catch(() => false);
      if (applied) return;
      await this.call(`write ${document.name} (${unchanged})`, () => Promise.reject(error));
    }
  }

  async removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    if (!(await this.hasCollection())) return false;
    const existing = await this.getDocument(documentId, scope);
    if (!existing) return false;
    await this.locks.exclusive(scope, existing.name, async () => {
      // A document that was moved here names the copy it replaced: that copy goes first, for good.
      const sources = (await documentsNamed(this.connection, scope, existing.name))
        .filter((payload) => payload.scope === scope)
        .map(movedFrom)
        .filter((source): source is MovedFrom => source !== undefined);
      await this.call(`remove ${existing.name} (it is still searchable)`, () =>
        deleteMovedCopies(this.connection, sources),
      );
      // The commit: one request deletes every document point of the name, so no older one shows up.
      const documents = {
        must: [
          { key: 'kind', match: { value: 'document' } },
          { key: 'scope', match: { value: scope } },
          { key: 'name', match: { value: existing.name } },
        ],
      };
      try {
        await this.client.delete(this.collection, { wait: true, ordering: 'strong', filter: documents });
      } catch (error) {
        const left = await documentsNamed(this.connection, scope, existing.name).catch(() => undefined);
        if (left === undefined || left.some((payload) => payload.scope === scope)) {
          await this.call(`remove ${existing.name} (it is still searchable)`, () => Promise.reject(error));
        }
      }
      try {
        await sweep(this.connection, { scope, name: existing.name }, 0);
      } catch (error) {
        this.options.logger?.warn(
          { scope, name: existing.name, error: describeError(error) },
          'the document is removed, but deleting its chunks failed; they are swept before the next write of this file and at start',
        );
      }
    });
    return true;
  }

  /**
   * The move, correct under failure (see the top of the file for the versioned commit it builds on).
   * Both (scope, name) write locks are taken, in a fixed order (sorted by scope), so no two writers wait
   * for each other. Then:
   * 1. leftovers of both names are swept — the source's strictly (an older document point of it left
   *    behind would be live again once the moved copy's point is deleted), and a copy the source's own
   *    marker names (an earlier move here, clean-up pending) goes too: so a copy a marker names never
   *    carries a marker of its own, and deleting it can never bring a third copy back;
   * 2. the source's chunks are copied, vectors and all, into the target scope under a fresh version:
   *    invisible, as no document point names that version yet;
   * 3. commit, ONE point write (`ordering: strong`): the target's document point, with the version, a
   *    generation above any of that name there, the same record (uploader, link) and the marker
   *    `moved_from_scope` + `moved_from_version`. Readers (`consistency: majority`) fetch the markers
   *    of moves out of the scopes they read, and from this write on take the source copy as gone — so
   *    a search sees the document in exactly one of the two scopes before, during and after;
   * 4. clean-up: the source's document point (exactly that version), then its chunks. A failure here is
   *    a move done with clean-up pending (a warning): the source is not live, and is swept before the
   *    next write of either name and at open. A marker's document point is only ever deleted after the
   *    copy it names (sweep, removeDocument), so that copy never comes back.
   */
  async moveDocument(documentId: string, from: Scope, to: Scope): Promise<MoveOutcome> {
    if (from === to) throw moveToSameScope(from);
    if (!(await this.hasCollection())) throw moveSourceMissing(documentId, from);
    const found = await this.getDocument(documentId, from).catch((error: unknown) => {
      throw stillIn(error, documentId.slice(0, 12), from);
    });
    if (!found) throw moveSourceMissing(documentId, from);
    const name = found.name;
    const [first, second] = [from, to].sort();
    return this.locks.exclusive(first!, name, () =>
      this.locks.exclusive(second!, name, () => this.moveLocked(documentId, name, from, to)),
    );
  }

  private async moveLocked(documentId: string, name: string, from: Scope, to: Scope): Promise<MoveOutcome> {
    const unchanged = `it is still in ${from} only`;
    const version = crypto.randomUUID();
    const { source, targetDocuments } = await this.prepareMove(documentId, name, from, to, version).catch(
      (error: unknown) => {
        throw stillIn(error, name, from);
      },
    );
    const document: DocumentRecord = { ...toDocument(source), scope: to };
    const payload = {
      ...documentPayload(document, version, nextGeneration(targetDocuments, to)),
      moved_from_scope: from,
      moved_from_version: String(source.version),
    };
    await this.commit(document, payload, unchanged);
    let cleanUpPending = false;
    try {
      await sweep(this.connection, { scope: from, name }, 0);
    } catch (error) {
      cleanUpPending = true;
      this.options.logger?.warn(
        { from, to, name, documentId, error: describeError(error) },
        'the document is moved, but removing the old copy failed; it is no longer searched, and is swept before the next write of this file and at start',
      );
    }
    this.options.logger?.debug({ documentId, from, to }, 'moved in Qdrant');
    return { document, cleanUpPending };
  }

  /** Steps 1–2 of a move: sweeps, checks, the invisible copy of the chunks. */
  private async prepareMove(
    documentId: string,
    name: string,
    from: Scope,
    to: Scope,
    version: string,
  ): Promise<{ source: Payload; targetDocuments: Payload[] }> {
    await this.call(`move ${name}`, () => sweep(this.connection, { scope: from, name }, 0));
    await sweep(this.connection, { scope: to, name }, 0).catch((error: unknown) =>
      this.options.logger?.warn(
        { scope: to, name, error: describeError(error) },
        'sweeping leftovers before a move failed',
      ),
    );
    const sourceDocuments = await documentsNamed(this.connection, from, name);
    const source = splitLive(sourceDocuments, new Set([from])).live[0];
    if (!source || source.document_id !== documentId) throw moveSourceMissing(documentId, from);
    // Moved here before with its clean-up pending: that older copy goes now, so that a copy a marker
    // names never carries a marker of its own (deleting it can never bring a third copy back).
    const earlier = movedFrom(source);
    if (earlier) await this.call(`move ${name}`, () => deleteMovedCopies(this.connection, [earlier]));
    const targetDocuments = await documentsNamed(this.connection, to, name);
    const taken = splitLive(targetDocuments, new Set([to])).live[0];
    if (taken) throw moveTargetTaken(name, to, { name });
    const sameBytes = (await liveDocuments(this.connection, [to])).find(
      (payload) => payload.document_id === documentId,
    );
    if (sameBytes) throw moveTargetTaken(name, to, { name: String(sameBytes.name) });

    await this.call(`copy the chunks of ${name} to ${to}`, () =>
      this.copyChunks({ scope: from, name, version: String(source.version) }, to, version),
    );
    return { source, targetDocuments };
  }

  /** Copies the parents and children of one version of (scope, name) into `to` under `version`. */
  private async copyChunks(
    source: { scope: Scope; name: string; version: string },
    to: Scope,
    version: string,
  ) {
    const filter = {
      must: [
        chunkKinds,
        { key: 'scope', match: { value: source.scope } },
        { key: 'document_name', match: { value: source.name } },
        { key: 'version', match: { value: source.version } },
      ],
    };
    const writtenAt = Date.now();
    let offset: string | number | undefined;
    for (;;) {
      const page = await this.client.scroll(this.collection, {
        filter,
        ...liveRead,
        limit: this.connection.batchSize,
        with_payload: true,
        with_vector: true,
        ...(offset === undefined ? {} : { offset }),
      });
      const points = page.points.map((point) => {
        const payload = point.payload as Payload;
        const kind = String(payload.kind);
        const chunkId = String(kind === 'child' ? payload.child_id : payload.parent_id);
        return {
          id: pointId(to, kind, chunkId, version),
          vector: (point.vector ?? {}) as never,
          payload: { ...payload, scope: to, version, written_at: writtenAt },
        };
      });
      if (points.length > 0) await this.client.upsert(this.collection, { wait: true, points });
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === 'object') return;
      offset = next;
    }
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

/** One more than any document point of `scope` among `documents` (those of (scope, name)). */
function nextGeneration(documents: readonly Payload[], scope: Scope): number {
  const own = documents.filter((payload) => payload.scope === scope);
  return Math.max(0, ...own.map((payload) => Number(payload.generation ?? 0))) + 1;
}

/** A failure before a move's commit, saying that nothing moved. */
function stillIn(error: unknown, name: string, from: Scope): unknown {
  if (!(error instanceof RagentError) || !error.code.startsWith('QDRANT_')) return error;
  return new RagentError(
    error.code,
    `${error.message} Nothing was moved: ${name} is still in ${from} only.`,
    {
      cause: error,
      ...(error.details ? { details: error.details } : {}),
    },
  );
}

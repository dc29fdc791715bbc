/**
 * The Qdrant backend (QDRANT_URL). One collection holds everything, told apart by `payload.kind`:
 * - `child` points carry the named dense vector `dense` (cosine) and the named sparse vector `bm25`
 *   (`modifier: idf`, so Qdrant applies IDF to our FastEmbed-compatible BM25 weights);
 * - `parent`, `document` and one `meta` point (embedding model + dimension) carry payload only.
 * Payload indexes: scope, document_id, kind, version, parent_id.
 *
 * Atomic replace, in effect: every write of a document gets a fresh `version` (a UUID). Its parents and
 * children are upserted first under that version; they stay invisible because every read filters on
 * the versions that `document` points name. The commit is ONE batch request that upserts the new
 * `document` point (naming the new version) and deletes the replaced documents' points — after it,
 * the new version is searchable and the old ones are not. Then the old versions' chunks are deleted.
 * A crash before the commit leaves only unreferenced points (invisible, removed by the next write of
 * that document); a crash after it leaves unreferenced old chunks (likewise).
 *
 * Search over-fetches `candidatePoolSize(k)` points and keeps at most two children per parent
 * (`limitPerParent`, shared with the embedded store).
 *
 * Note: Qdrant computes IDF over the whole collection, the embedded store over the caller's scopes.
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import type { DocumentRecord, ParentChunk, Scope, SearchHit } from '../core/types.ts';
import { describeError, RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { classifyFailure, serviceError } from '../outside-calls.ts';
import type {
  ChunkIndex,
  IndexEmbeddingInfo,
  ReplaceDocumentInput,
  SearchOptions,
  SearchQuery,
} from './chunk-index.ts';
import { candidatePoolSize, limitPerParent } from './diversify.ts';
import { embeddingMismatchError } from './embedding-mismatch.ts';
import { documentPayload, location, type Payload, pointId, toChild, toDocument } from './qdrant-points.ts';

export interface QdrantChunkIndexOptions {
  url: string;
  apiKey: string | undefined;
  collection: string;
  logger?: Logger;
  /** Points per upsert request. */
  batchSize?: number;
}

type Filter = { must?: unknown[]; must_not?: unknown[]; should?: unknown[] };

const denseName = 'dense';
const sparseName = 'bm25';
const metaId = '00000000-0000-4000-8000-000000000000';
const fusionDepth = (k: number) => Math.max(k * 4, 40);

export async function openQdrantChunkIndex(options: QdrantChunkIndexOptions): Promise<QdrantChunkIndex> {
  const index = new QdrantChunkIndex(options);
  await index.connect();
  return index;
}

export class QdrantChunkIndex implements ChunkIndex {
  private readonly client: QdrantClient;
  private readonly options: QdrantChunkIndexOptions;
  private readonly collection: string;
  /** Dense size of the collection; null = BM25 only; undefined = no collection yet. */
  private denseSize: number | null | undefined;

  constructor(options: QdrantChunkIndexOptions) {
    this.options = options;
    this.collection = options.collection;
    this.client = new QdrantClient({
      url: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      checkCompatibility: false,
      timeout: 30_000,
    });
  }

  /** Reads the collection's layout (if it exists), so that unreachable servers fail at start-up. */
  async connect(): Promise<void> {
    await this.call('connect', async () => {
      const { exists } = await this.client.collectionExists(this.collection);
      if (!exists) return;
      const info = await this.client.getCollection(this.collection);
      const vectors = (info.config.params.vectors ?? {}) as Record<string, { size?: number }>;
      this.denseSize = vectors[denseName]?.size ?? null;
    });
  }

  async replaceDocument(input: ReplaceDocumentInput): Promise<void> {
    const { document, parents, children } = input;
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
    const version = crypto.randomUUID();
    const scope = document.scope;
    await this.call('write', async () => {
      const points = [
        ...parents.map((parent) => ({
          id: pointId(scope, 'parent', parent.id, version),
          vector: {},
          payload: {
            kind: 'parent',
            scope,
            version,
            document_id: document.id,
            document_name: document.name,
            parent_id: parent.id,
            page_start: parent.pageStart,
            page_end: parent.pageEnd,
            section_path: parent.sectionPath,
            text: parent.text,
          },
        })),
        ...children.map((child) => ({
          id: pointId(scope, 'child', child.id, version),
          vector: {
            [sparseName]: { indices: child.sparse.indices, values: child.sparse.values },
            ...(child.dense ? { [denseName]: Array.from(child.dense) } : {}),
          },
          payload: {
            kind: 'child',
            scope,
            version,
            document_id: document.id,
            document_name: document.name,
            child_id: child.id,
            parent_id: child.parentId,
            page_start: child.pageStart,
            page_end: child.pageEnd,
            section_path: child.sectionPath,
            text: child.text,
          },
        })),
      ];
      const size = this.options.batchSize ?? 256;
      for (let start = 0; start < points.length; start += size) {
        await this.client.upsert(this.collection, { wait: true, points: points.slice(start, start + size) });
      }
      const replaced = [...new Set(input.replaces ?? [])].filter((id) => id !== document.id);
      // The commit: one request, applied in order.
      await this.client.batchUpdate(this.collection, {
        wait: true,
        operations: [
          {
            upsert: {
              points: [
                {
                  id: pointId(scope, 'document', document.id),
                  vector: {},
                  payload: documentPayload(document, version),
                },
              ],
            },
          },
          ...(replaced.length > 0
            ? [{ delete: { points: replaced.map((id) => pointId(scope, 'document', id)) } }]
            : []),
        ],
      });
      // Clean-up of what is no longer referenced (older versions of this and the replaced documents).
      await this.client.delete(this.collection, {
        wait: true,
        filter: {
          must: [
            { key: 'scope', match: { value: scope } },
            { key: 'document_id', match: { any: [document.id, ...replaced] } },
            { key: 'kind', match: { any: ['child', 'parent'] } },
          ],
          must_not: [{ key: 'version', match: { value: version } }],
        },
      });
    });
    this.options.logger?.debug(
      { documentId: document.id, scope, children: children.length },
      'indexed in Qdrant',
    );
  }

  async removeDocument(documentId: string, scope: Scope): Promise<boolean> {
    if (!(await this.hasCollection())) return false;
    const existing = await this.getDocument(documentId, scope);
    if (!existing) return false;
    await this.call('remove', async () => {
      await this.client.delete(this.collection, {
        wait: true,
        points: [pointId(scope, 'document', documentId)],
      });
      await this.client.delete(this.collection, {
        wait: true,
        filter: {
          must: [
            { key: 'scope', match: { value: scope } },
            { key: 'document_id', match: { value: documentId } },
          ],
        },
      });
    });
    return true;
  }

  async getDocument(documentId: string, scope: Scope): Promise<DocumentRecord | undefined> {
    if (!(await this.hasCollection())) return undefined;
    const [point] = await this.call('read', () =>
      this.client.retrieve(this.collection, {
        ids: [pointId(scope, 'document', documentId)],
        with_payload: true,
      }),
    );
    const payload = point?.payload as Payload | undefined;
    if (payload?.kind !== 'document' || payload.scope !== scope) return undefined;
    return toDocument(payload);
  }

  async listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]> {
    if (scopes.length === 0 || !(await this.hasCollection())) return [];
    const payloads = await this.scrollAll({
      must: [
        { key: 'kind', match: { value: 'document' } },
        { key: 'scope', match: { any: [...scopes] } },
      ],
    });
    return payloads
      .map(toDocument)
      .sort(
        (left, right) =>
          left.name.localeCompare(right.name) || left.ingestedAt.localeCompare(right.ingestedAt),
      );
  }

  async getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined> {
    if (scopes.length === 0 || !(await this.hasCollection())) return undefined;
    const versions = await this.liveVersions(scopes);
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
      const meta = await this.readMeta();
      throw mismatch(
        this.collection,
        meta?.model ?? 'unknown',
        this.denseSize,
        'the query embedder',
        query.dense.length,
      );
    }
    if (!useSparse && !useDense) return [];
    const versions = await this.liveVersions(options.scopes);
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
    if (info.model === null) return;
    if (
      this.denseSize !== undefined &&
      this.denseSize !== null &&
      info.dimension !== null &&
      this.denseSize !== info.dimension
    ) {
      const meta = await this.readMeta();
      throw mismatch(this.collection, meta?.model ?? 'unknown', this.denseSize, info.model, info.dimension);
    }
    if (!(await this.hasCollection())) return;
    const meta = await this.readMeta();
    if (meta && meta.model !== info.model) {
      throw mismatch(this.collection, meta.model, meta.dimension, info.model, info.dimension);
    }
    if (!meta || (meta.dimension === null && info.dimension !== null)) {
      await this.call('write', () =>
        this.client.upsert(this.collection, {
          wait: true,
          points: [
            {
              id: metaId,
              vector: {},
              payload: {
                kind: 'meta',
                scope: '',
                embedding_model: info.model,
                embedding_dimension: info.dimension,
              },
            },
          ],
        }),
      );
    }
  }

  async close(): Promise<void> {}

  private async hasCollection(): Promise<boolean> {
    if (this.denseSize !== undefined) return true;
    await this.connect();
    return this.denseSize !== undefined;
  }

  private async ensureCollection(dimension: number | null): Promise<void> {
    if (!(await this.hasCollection())) {
      await this.call('create the collection', async () => {
        await this.client.createCollection(this.collection, {
          vectors: dimension === null ? {} : { [denseName]: { size: dimension, distance: 'Cosine' } },
          sparse_vectors: { [sparseName]: { modifier: 'idf' } },
        });
        for (const field of ['scope', 'document_id', 'kind', 'version', 'parent_id']) {
          await this.client.createPayloadIndex(this.collection, {
            field_name: field,
            field_schema: 'keyword',
            wait: true,
          });
        }
      });
      this.denseSize = dimension;
      return;
    }
    if (dimension !== null && this.denseSize === null) {
      throw new RagentError(
        'INDEX_MODEL_MISMATCH',
        `The Qdrant collection "${this.collection}" was created for BM25 only, without dense vectors. ` +
          'Delete the collection (or set QDRANT_COLLECTION to a new name) and ingest again, ' +
          'or keep RAGENT_EMBEDDINGS=none.',
      );
    }
  }

  private async readMeta(): Promise<{ model: string; dimension: number | null } | undefined> {
    const [point] = await this.call('read', () =>
      this.client.retrieve(this.collection, { ids: [metaId], with_payload: true }),
    );
    const payload = point?.payload as Payload | undefined;
    if (!payload || typeof payload.embedding_model !== 'string') return undefined;
    const dimension = typeof payload.embedding_dimension === 'number' ? payload.embedding_dimension : null;
    return { model: payload.embedding_model, dimension };
  }

  /** The committed versions of the documents in these scopes. */
  private async liveVersions(scopes: readonly Scope[]): Promise<string[]> {
    const documents = await this.scrollAll({
      must: [
        { key: 'kind', match: { value: 'document' } },
        { key: 'scope', match: { any: [...scopes] } },
      ],
    });
    return documents.map((payload) => String(payload.version));
  }

  private async scrollAll(filter: Filter): Promise<Payload[]> {
    const payloads: Payload[] = [];
    let offset: string | number | undefined;
    for (;;) {
      const page = await this.call('read', () =>
        this.client.scroll(this.collection, {
          filter,
          limit: 256,
          with_payload: true,
          ...(offset === undefined ? {} : { offset }),
        }),
      );
      for (const point of page.points) payloads.push(point.payload as Payload);
      const next = page.next_page_offset;
      if (next === null || next === undefined || typeof next === 'object') break;
      offset = next;
    }
    return payloads;
  }

  private async call<Result>(what: string, work: () => Promise<Result>): Promise<Result> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof RagentError) throw error;
      const failure = classifyFailure(error);
      const context = {
        service: 'qdrant',
        url: this.options.url,
        failure,
        cause: error,
        extra: { collection: this.collection, operation: what },
      };
      if (failure.kind === 'unreachable' || failure.kind === 'disconnected') {
        throw serviceError(
          'QDRANT_UNREACHABLE',
          `Qdrant is not reachable (${failure.reason}). Start it (e.g. \`docker run -p 6333:6333 qdrant/qdrant\`), ` +
            'fix QDRANT_URL, or unset QDRANT_URL to use the embedded index.',
          context,
        );
      }
      if (failure.kind === 'unauthorized') {
        throw serviceError(
          'QDRANT_FAILED',
          `Qdrant refused ragent's API key (${failure.reason}). Check QDRANT_API_KEY.`,
          context,
        );
      }
      throw serviceError(
        'QDRANT_FAILED',
        `Qdrant failed to ${what} in collection "${this.collection}": ${firstLine(describeError(error))}. ` +
          'Check the Qdrant log and QDRANT_API_KEY, then try again.',
        context,
      );
    }
  }
}

function mismatch(
  collection: string,
  indexModel: string,
  indexDimension: number | null,
  wantedModel: string,
  wantedDimension: number | null,
): RagentError {
  return embeddingMismatchError({
    index: `The Qdrant collection "${collection}"`,
    indexModel,
    indexDimension,
    wantedModel,
    wantedDimension,
    reindex:
      'delete the collection (or set QDRANT_COLLECTION to a new name) and ingest your documents again.',
  });
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

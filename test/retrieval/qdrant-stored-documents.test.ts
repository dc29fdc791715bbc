/**
 * What `ragent reindex` needs of the Qdrant backend beyond the shared contract (chunk-index-contract.ts):
 * a document read back page by page, points written before chunks recorded their position, and the drop
 * of the dense vectors before another model of the same size (a new size refused, nothing dropped).
 * Real client against the fake server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { openQdrantChunkIndex, type QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { axis, makeDocument } from './make-document.ts';

describe('Qdrant: documents read back and dense vectors dropped (real client, fake server)', () => {
  let fake: FakeQdrant;
  let index: QdrantChunkIndex;
  const open = (batchSize = 4) =>
    openQdrantChunkIndex({
      url: fake.url,
      apiKey: undefined,
      collection: 'ragent',
      batchSize,
      logger: createLogger({ level: 'silent' }),
    });
  const points = (kind: string) =>
    [...fake.collection('ragent')!.points.values()].filter((point) => point.payload.kind === kind);
  const manual = (options: { id?: string; model?: string; dimension?: number } = {}) =>
    makeDocument({
      id: options.id ?? 'manual',
      scope: 'shared',
      texts: Array.from({ length: 30 }, (_unused, at) => `step ${at} of the pump manual`),
      parentOf: (at) => Math.floor(at / 4),
      dense: (_text, at) => axis(options.dimension ?? 4, at % (options.dimension ?? 4)),
      model: options.model ?? 'model-a',
    });
  const withoutVectors = (input: ReturnType<typeof manual>) =>
    input.children.map(({ sparse: _sparse, dense: _dense, ...child }) => child);

  beforeEach(async () => {
    fake = await startFakeQdrant();
    index = await open();
  });
  afterEach(async () => {
    await index.close();
    await fake.close();
    expect(fake.violations).toEqual([]);
  });

  it('reads a large document in pages of the batch size, every chunk once, in order', async () => {
    const written = manual();
    await index.replaceDocument(written);
    const before = fake.requests.length;
    const stored = await index.readDocument('manual', 'shared');
    expect(stored?.parents).toEqual(written.parents);
    expect(stored?.children).toEqual(withoutVectors(written));
    const scrolls = fake.requests
      .slice(before)
      .filter((request) => request.path.endsWith('/points/scroll') && request.body);
    const chunkScrolls = scrolls.filter((request) => JSON.stringify(request.body).includes('"version"'));
    // 8 parents + 30 children, 4 a page: 10 pages, each read from a majority of the replicas.
    expect(chunkScrolls).toHaveLength(10);
    expect(chunkScrolls.every((request) => (request.body as { limit: number }).limit === 4)).toBe(true);
    expect(chunkScrolls.every((request) => request.query.consistency === 'majority')).toBe(true);
  });

  it('orders chunks written before positions were recorded by their ids, numbers as numbers', async () => {
    const written = manual();
    await index.replaceDocument(written);
    for (const point of [...points('parent'), ...points('child')]) delete point.payload.position;
    const stored = await index.readDocument('manual', 'shared');
    // manual:c2 before manual:c10, manual:p1 before manual:p7: the order they were ingested in.
    expect(stored?.children.map((child) => child.id)).toEqual(written.children.map((child) => child.id));
    expect(stored?.parents.map((parent) => parent.id)).toEqual(written.parents.map((parent) => parent.id));
  });

  it('refuses a document whose live chunks do not add up to its record', async () => {
    await index.replaceDocument(manual());
    const [first] = points('child');
    fake
      .collection('ragent')!
      .points.delete(
        [...fake.collection('ragent')!.points.entries()].find(([, point]) => point === first)![0],
      );
    await expect(index.readDocument('manual', 'shared')).rejects.toMatchObject({
      code: 'QDRANT_FAILED',
      message: expect.stringContaining('29 of 30 chunks of manual.pdf, so it was not re-indexed'),
    });
  });

  it('reads a document removed during the read as gone, not as a partial document', async () => {
    await index.replaceDocument(manual());
    let chunkPages = 0;
    // Another process removes the document while the third page is being read.
    fake.failRequest({
      where: (request) => {
        if (!request.path.endsWith('/points/scroll') || !JSON.stringify(request.body).includes('"version"')) {
          return false;
        }
        if (++chunkPages === 3) {
          const stored = fake.collection('ragent')!.points;
          for (const [key, point] of stored) if (point.payload.kind !== 'meta') stored.delete(key);
        }
        return false;
      },
    });
    expect(await index.readDocument('manual', 'shared')).toBeUndefined();
    expect(chunkPages).toBeGreaterThanOrEqual(3);
  });

  it('drops every dense vector for another model of the same size, the text and records kept', async () => {
    await index.replaceDocument(manual());
    await index.replaceDocument(manual({ id: 'guide' }));
    expect(await index.dropDenseVectors({ model: 'model-b', dimension: 4 })).toBe(60);
    expect(points('child').every((point) => point.vector.dense === undefined && point.vector.bm25)).toBe(
      true,
    );
    expect((await index.listAllDocuments()).map((document) => document.embeddingModel)).toEqual([null, null]);
    expect(points('meta')).toEqual([]);
    // The new model is recorded by the next write; the old one is refused from then on.
    await index.ensureEmbedding({ model: 'model-b', dimension: 4 });
    await expect(index.ensureEmbedding({ model: 'model-a', dimension: 4 })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
    expect((await index.readDocument('manual', 'shared'))?.children).toEqual(withoutVectors(manual()));
  });

  it('refuses a model of another size before touching a vector: a collection keeps its size', async () => {
    await index.replaceDocument(manual());
    const mismatch = await index.ensureEmbedding({ model: 'model-b', dimension: 8 }).catch((error) => error);
    expect(mismatch).toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    expect(mismatch.message).toContain('set QDRANT_COLLECTION to a new name and ingest your files again');
    const refused = await index.dropDenseVectors({ model: 'model-b', dimension: 8 }).catch((error) => error);
    expect(refused).toMatchObject({ code: 'INDEX_MODEL_MISMATCH' });
    expect(refused.message).toContain('model-a (4 dimensions)');
    expect(refused.message).toContain('model-b (8 dimensions)');
    expect(refused.message).toContain('keeps the vector size it was created with');
    expect(points('child').every((point) => Array.isArray(point.vector.dense))).toBe(true);
    expect(points('meta')).toHaveLength(1);
    // Same size, another model: `ragent reindex` is the way.
    const sameSize = await index.ensureEmbedding({ model: 'model-b', dimension: 4 }).catch((error) => error);
    expect(sameSize.message).toContain('run `ragent reindex`');
  });

  it('refuses embeddings in a collection created for BM25 only, recording nothing', async () => {
    await index.replaceDocument(makeDocument({ id: 'plain', scope: 'shared', texts: ['valve'] }));
    await expect(index.ensureEmbedding({ model: 'model-a', dimension: 4 })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
      message: expect.stringContaining('created for BM25 only'),
    });
    await expect(index.dropDenseVectors({ model: 'model-a', dimension: 4 })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
    expect(points('meta')).toEqual([]);
    expect(await index.readDocument('plain', 'shared')).toBeDefined();
  });
});

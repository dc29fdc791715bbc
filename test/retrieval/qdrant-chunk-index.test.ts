import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { candidatePoolSize } from '../../src/retrieval/diversify.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { openQdrantChunkIndex, QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { axis, crowdedParent, crowdedTexts, makeDocument } from './make-document.ts';

const query = (text: string, dense?: Float32Array) => ({ text, sparse: encodeSparseQuery(text), dense });

describe('Qdrant chunk index (real client against the fake server)', () => {
  let fake: FakeQdrant;
  let index: QdrantChunkIndex;
  beforeEach(async () => {
    fake = await startFakeQdrant();
    index = await openQdrantChunkIndex({ url: fake.url, apiKey: undefined, collection: 'ragent' });
  });
  afterEach(async () => {
    await index.close();
    await fake.close();
    expect(fake.violations).toEqual([]);
  });

  it('is the backend openChunkIndex picks when QDRANT_URL is set', async () => {
    const config = loadConfig({ QDRANT_URL: fake.url, QDRANT_COLLECTION: 'picked' }, { envFile: false });
    const picked = await openChunkIndex(config, createLogger({ level: 'silent' }));
    expect(picked).toBeInstanceOf(QdrantChunkIndex);
    await picked.replaceDocument(makeDocument({ id: 'd', scope: 'shared', texts: ['plum'] }));
    expect(fake.collection('picked')).toBeDefined();
    await picked.close();
  });

  it('creates the collection with named dense + sparse(idf) vectors and payload indexes', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'd1', scope: 'shared', texts: ['apple pie'], dense: () => axis(4, 0) }),
    );
    const collection = fake.collection('ragent')!;
    expect(collection.dense).toEqual({ dense: { size: 4, distance: 'Cosine' } });
    expect(collection.sparse).toEqual({ bm25: { modifier: 'idf' } });
    expect([...collection.payloadIndexes.keys()]).toEqual(
      expect.arrayContaining(['scope', 'document_id', 'kind', 'version']),
    );
    const child = [...collection.points.values()].find((point) => point.payload.kind === 'child')!;
    expect(child.vector.bm25).toEqual({ indices: expect.any(Array), values: expect.any(Array) });
    expect(child.vector.dense).toHaveLength(4);
  });

  it('searches hybrid with prefetch + RRF, always filtered on the caller’s scopes', async () => {
    const texts = ['apple orchard harvest', 'banana plantation', 'cherry blossom apple'];
    await index.replaceDocument(
      makeDocument({ id: 'fruit', scope: 'slack:T1', texts, dense: (_text, at) => axis(8, at, 0.1) }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'fruit', scope: 'slack:T2', texts, dense: (_text, at) => axis(8, at, 0.1) }),
    );
    const hits = await index.search(query('apple', axis(8, 2)), { scopes: ['slack:T1'], k: 3 });
    expect(hits[0]?.child).toMatchObject({ id: 'fruit:c2', scope: 'slack:T1', parentId: 'fruit:p2' });
    expect(hits.every((hit) => hit.child.scope === 'slack:T1')).toBe(true);
    const sent = fake.queries().at(-1)!;
    expect(sent.query).toEqual({ fusion: 'rrf' });
    expect(sent.prefetch).toEqual([
      expect.objectContaining({
        using: 'bm25',
        query: expect.objectContaining({ indices: expect.any(Array) }),
      }),
      expect.objectContaining({ using: 'dense', query: expect.any(Array) }),
    ]);
    expect(JSON.stringify(sent.filter)).toContain('"key":"scope","match":{"any":["slack:T1"]}');
    expect(await index.search(query('apple'), { scopes: [], k: 3 })).toEqual([]);
    expect(await index.search(query('apple'), { scopes: ['discord:X'], k: 3 })).toEqual([]);
  });

  it('over-fetches and returns at most two children of one parent, like the embedded store', async () => {
    await index.replaceDocument(
      makeDocument({
        id: 'fruit',
        scope: 'shared',
        texts: crowdedTexts,
        parentOf: crowdedParent,
        dense: () => axis(4, 0),
      }),
    );
    const sparseOnly = await index.search(query('kiwi'), { scopes: ['shared'], k: 4 });
    expect(sparseOnly.map((hit) => hit.child.parentId).sort()).toEqual([
      'fruit:p0',
      'fruit:p0',
      'fruit:p1',
      'fruit:p2',
    ]);
    expect(sparseOnly.slice(0, 2).map((hit) => hit.child.parentId)).toEqual(['fruit:p0', 'fruit:p0']);
    expect(fake.queries().at(-1)?.limit).toBe(candidatePoolSize(4));
    const hybrid = await index.search(query('kiwi', axis(4, 0)), { scopes: ['shared'], k: 3 });
    expect(hybrid.filter((hit) => hit.child.parentId === 'fruit:p0')).toHaveLength(2);
    expect(hybrid).toHaveLength(3);
    expect(fake.queries().at(-1)?.limit).toBe(candidatePoolSize(3));
  });

  it('replaces a document as one commit and looks parents up within scopes', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'v2', name: 'guide.pdf', scope: 'shared', texts: ['new yak'], replaces: ['v1'] }),
    );
    expect(await index.search(query('zebra'), { scopes: ['shared'], k: 5 })).toEqual([]);
    expect((await index.search(query('yak'), { scopes: ['shared'], k: 5 }))[0]?.child.id).toBe('v2:c0');
    expect((await index.listDocuments(['shared'])).map((doc) => doc.id)).toEqual(['v2']);
    expect(await index.getParent('v2:p0', ['shared'])).toMatchObject({
      id: 'v2:p0',
      text: 'Parent of: new yak',
    });
    expect(await index.getParent('v2:p0', ['slack:T1'])).toBeUndefined();
    expect(await index.getParent('v1:p0', ['shared'])).toBeUndefined();
    const kinds = [...fake.collection('ragent')!.points.values()].map((point) => point.payload.kind);
    expect(kinds.filter((kind) => kind === 'child')).toHaveLength(1);
  });

  it('keeps a half-written version invisible (crash before the commit)', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] }),
    );
    fake.failRequest({ where: (request) => request.method === 'PUT' && request.query.ordering === 'strong' });
    await expect(
      index.replaceDocument(
        makeDocument({ id: 'v2', name: 'guide.pdf', scope: 'shared', texts: ['new yak'], replaces: ['v1'] }),
      ),
    ).rejects.toMatchObject({ code: 'QDRANT_FAILED' });
    // The new chunks were upserted but never committed: not searchable; the old version still is.
    expect(await index.search(query('yak'), { scopes: ['shared'], k: 5 })).toEqual([]);
    expect(await index.search(query('zebra'), { scopes: ['shared'], k: 5 })).toHaveLength(1);
  });

  it('removes documents only within their scope', async () => {
    await index.replaceDocument(makeDocument({ id: 'd', scope: 'slack:T1', texts: ['kiwi'] }));
    expect(await index.removeDocument('d', 'slack:T2')).toBe(false);
    expect(await index.getDocument('d', 'slack:T1')).toMatchObject({ id: 'd', scope: 'slack:T1' });
    expect(await index.removeDocument('d', 'slack:T1')).toBe(true);
    expect(await index.getDocument('d', 'slack:T1')).toBeUndefined();
    expect(fake.collection('ragent')!.points.size).toBe(0);
  });

  it('refuses another embedding model', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'x', scope: 'shared', texts: ['t'], dense: () => axis(4, 0), model: 'model-a' }),
    );
    await expect(index.ensureEmbedding({ model: 'model-a', dimension: 4 })).resolves.toBeUndefined();
    await expect(index.ensureEmbedding({ model: 'model-b', dimension: null })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
      message: expect.stringContaining('OLLAMA_EMBED_MODEL=model-a'),
    });
    await expect(index.search(query('t', axis(6, 0)), { scopes: ['shared'], k: 1 })).rejects.toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
    });
  });
});

describe('Qdrant unreachable', () => {
  it('says so with how to fix it', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const error = await openQdrantChunkIndex({
      url: `http://127.0.0.1:${port}`,
      apiKey: undefined,
      collection: 'ragent',
    }).catch((caught) => caught);
    expect(error.code).toBe('QDRANT_UNREACHABLE');
    expect(error.message).not.toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('QDRANT_URL');
    expect(error.details).toMatchObject({
      service: 'qdrant',
      failure: 'unreachable',
      networkCode: 'ECONNREFUSED',
      url: `http://127.0.0.1:${port}`,
    });
  });
});

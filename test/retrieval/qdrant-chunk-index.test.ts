import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery, sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import { candidatePoolSize } from '../../src/retrieval/diversify.ts';
import { describeStaleRanking, staleRanking } from '../../src/retrieval/index-health.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { openQdrantChunkIndex, QdrantChunkIndex } from '../../src/retrieval/qdrant-chunk-index.ts';
import { type FakeQdrant, startFakeQdrant } from '../fakes/fake-qdrant.ts';
import { describeChunkIndexContract } from './chunk-index-contract.ts';
import { axis, crowdedParent, crowdedTexts, makeDocument } from './make-document.ts';

const query = (text: string, dense?: Float32Array) => ({ text, sparse: encodeSparseQuery(text), dense });

describeChunkIndexContract('Qdrant (real client, fake server)', async () => {
  const fake = await startFakeQdrant();
  const open = () =>
    openQdrantChunkIndex({
      url: fake.url,
      apiKey: undefined,
      collection: 'ragent',
      sweepGraceMs: 0,
      logger: createLogger({ level: 'silent' }),
    });
  const index = await open();
  const opened = [index];
  let fired = false;
  return {
    index,
    faults: {
      applyModes: ['none', 'all'],
      // The `step`-th request from now fails (after being applied, with `all`); with `crash`, every
      // later one too, as if the process died with that request in flight.
      failAt: (step, { apply, crash }) => {
        let seen = 0;
        fired = false;
        fake.failRequest({
          where: () => {
            if (seen++ !== step) return false;
            fired = true;
            return true;
          },
          apply,
          thenDown: crash,
        });
      },
      fired: () => fired,
      recover: async () => {
        fake.up();
        const recovered = await open();
        opened.push(recovered);
        return recovered;
      },
      stored: async () => {
        const counts = { documents: 0, parents: 0, children: 0 };
        for (const point of fake.collection('ragent')?.points.values() ?? []) {
          const kind = String(point.payload.kind);
          if (kind === 'document') counts.documents++;
          else if (kind === 'parent') counts.parents++;
          else if (kind === 'child') counts.children++;
        }
        return counts;
      },
    },
    dispose: async () => {
      for (const each of opened) await each.close();
      await fake.close();
      expect(fake.violations).toEqual([]);
    },
  };
});

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

  it('deletes the old version’s points when a replace commits', async () => {
    await index.replaceDocument(
      makeDocument({ id: 'v1', name: 'guide.pdf', scope: 'shared', texts: ['old zebra'] }),
    );
    await index.replaceDocument(
      makeDocument({ id: 'v2', name: 'guide.pdf', scope: 'shared', texts: ['new yak'], replaces: ['v1'] }),
    );
    const kinds = [...fake.collection('ragent')!.points.values()].map((point) => point.payload.kind);
    expect(kinds.filter((kind) => kind === 'child')).toHaveLength(1);
    expect(await index.removeDocument('v2', 'shared')).toBe(true);
    expect(fake.collection('ragent')!.points.size).toBe(0);
  });

  it('reads a document point written before BM25 weights were versioned as older, until written again', async () => {
    const written = makeDocument({ id: 'old', name: 'guide.pdf', scope: 'shared', texts: ['quince'] });
    await index.replaceDocument(written);
    const documentPoints = [...fake.collection('ragent')!.points.values()].filter(
      (point) => point.payload.kind === 'document',
    );
    expect(documentPoints.map((point) => point.payload.sparse_weights_version)).toEqual([
      sparseWeightsVersion,
    ]);
    // A point as an older ragent wrote it: no `sparse_weights_version` in its payload.
    for (const point of documentPoints) delete point.payload.sparse_weights_version;
    const listed = await index.listDocuments(['shared']);
    expect(listed[0]).not.toHaveProperty('sparseWeightsVersion');
    // Qdrant re-indexes from the text it stores, as the embedded index does.
    expect(describeStaleRanking(staleRanking(listed), index.readDocument !== undefined)).toBe(
      '1 of 1 documents were indexed with the ranking weights of an older ragent, so searches rank them a ' +
        'little differently from the rest. Run `ragent reindex` to compute their weights again from the ' +
        'stored text.',
    );
    await index.replaceDocument(written);
    expect(staleRanking(await index.listDocuments(['shared'])).stale).toEqual([]);
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

import { QdrantClient } from '@qdrant/js-client-rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeQdrant, startFakeQdrant } from './fake-qdrant.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('fake Qdrant through the real @qdrant/js-client-rest', () => {
  let fake: FakeQdrant;
  let client: QdrantClient;
  beforeEach(async () => {
    fake = await startFakeQdrant();
    client = new QdrantClient({ url: fake.url, checkCompatibility: false });
    await client.createCollection('c', {
      vectors: { dense: { size: 2, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
    });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('stores points and answers a scoped hybrid query fused by RRF', async () => {
    await client.upsert('c', {
      points: [
        {
          id: id(1),
          vector: { dense: [1, 0], bm25: { indices: [7], values: [1] } },
          payload: { scope: 'a' },
        },
        {
          id: id(2),
          vector: { dense: [0, 1], bm25: { indices: [8], values: [1] } },
          payload: { scope: 'a' },
        },
        {
          id: id(3),
          vector: { dense: [1, 0], bm25: { indices: [7], values: [1] } },
          payload: { scope: 'b' },
        },
      ],
    });
    const filter = { must: [{ key: 'scope', match: { any: ['a'] } }] };
    const result = await client.query('c', {
      prefetch: [
        { query: { indices: [7], values: [1] }, using: 'bm25', limit: 5, filter },
        { query: [1, 0.1], using: 'dense', limit: 5, filter },
      ],
      query: { fusion: 'rrf' },
      filter,
      limit: 5,
      with_payload: true,
    });
    expect(result.points.map((point) => point.id)).toEqual([id(1), id(2)]);
    expect(fake.violations).toEqual([]);
    const scrolled = await client.scroll('c', { filter, limit: 1 });
    expect(scrolled.points).toHaveLength(1);
    expect(scrolled.next_page_offset).toBe(id(2));
  });

  it('rejects unscoped queries, unnamed vectors and malformed sparse vectors', async () => {
    await expect(client.query('c', { query: [1, 0], using: 'dense', limit: 1 })).rejects.toThrow();
    await expect(client.upsert('c', { points: [{ id: id(1), vector: [1, 0] }] })).rejects.toThrow();
    await expect(
      client.upsert('c', { points: [{ id: id(1), vector: { bm25: { indices: [1, 2], values: [1] } } }] }),
    ).rejects.toThrow();
    await expect(client.upsert('c', { points: [{ id: 'not-a-uuid', vector: {} }] })).rejects.toThrow();
    expect(fake.violations).toEqual([
      'every query must filter on scope',
      'vectors must be named',
      'sparse vector bm25 needs indices and values of the same length',
      'point id "not-a-uuid" is neither an unsigned integer nor a UUID',
    ]);
  });

  it('requires the idf modifier on sparse vectors', async () => {
    await expect(client.createCollection('d', { sparse_vectors: { bm25: {} } })).rejects.toThrow();
    expect(fake.violations[0]).toMatch(/modifier: idf/);
  });
});

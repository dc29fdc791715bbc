import { describe, expect, it } from 'vitest';
import { sparseWeightsVersion } from '../../src/retrieval/bm25.ts';
import {
  comfortableEmbeddedChildren,
  describeEmbeddingMix,
  describeIndexSize,
  describeStaleRanking,
  embeddedIndexSize,
  embeddingMix,
  hasCurrentSparseWeights,
  staleRanking,
} from '../../src/retrieval/index-health.ts';

describe('index health', () => {
  it('says by how much the embedded index is over its comfortable size, and that Qdrant is the way to grow', () => {
    expect(comfortableEmbeddedChildren).toBe(250_000);
    expect(describeIndexSize(embeddedIndexSize(250_000))).toBeUndefined();
    const over = embeddedIndexSize(300_000);
    expect(over).toEqual({ children: 300_000, comfortable: 250_000, over: 50_000 });
    expect(describeIndexSize(over)).toBe(
      'The embedded index holds 300,000 chunks, 50,000 (20 %) over the 250,000 it serves comfortably; ' +
        'searches get slower and it takes more memory. To grow further, run Qdrant and set QDRANT_URL ' +
        '(see docs/qdrant.md), then ingest the documents there.',
    );
  });

  it('finds documents without the configured embeddings (BM25 only or another model)', () => {
    const documents = [
      { embeddingModel: 'model-a' },
      { embeddingModel: null },
      { embeddingModel: 'model-b' },
      { embeddingModel: null },
    ];
    const mix = embeddingMix(documents, 'model-a');
    expect(mix.stale).toHaveLength(3);
    expect(describeEmbeddingMix(mix)).toBe(
      '3 of 4 documents are not indexed with model-a (2 with no embeddings (BM25 only), 1 with model-b), ' +
        'so searches rank them differently from the rest. Run `ragent reindex` to index them again from the stored text.',
    );
    expect(describeEmbeddingMix(embeddingMix([{ embeddingModel: null }], null))).toBeUndefined();
    expect(describeEmbeddingMix(embeddingMix([{ embeddingModel: 'model-a' }], null))).toContain(
      'not indexed with no embeddings (RAGENT_EMBEDDINGS=none)',
    );
  });

  it('finds documents indexed with older BM25 weights (an older version, or none recorded)', () => {
    expect(sparseWeightsVersion).toBeGreaterThanOrEqual(2);
    const documents = [{ sparseWeightsVersion }, {}, { sparseWeightsVersion: 1 }, { sparseWeightsVersion }];
    expect(documents.map(hasCurrentSparseWeights)).toEqual([true, false, false, true]);
    const ranking = staleRanking(documents);
    expect(ranking).toMatchObject({ total: 4, current: sparseWeightsVersion });
    expect(ranking.stale).toEqual([{}, { sparseWeightsVersion: 1 }]);
    expect(describeStaleRanking(ranking)).toBe(
      '2 of 4 documents were indexed with the ranking weights of an older ragent, so searches rank them a ' +
        'little differently from the rest. Run `ragent reindex` to compute their weights again from the ' +
        'stored text.',
    );
    expect(describeStaleRanking(staleRanking([{ sparseWeightsVersion }]))).toBeUndefined();
    expect(describeStaleRanking(staleRanking([]))).toBeUndefined();
  });
});

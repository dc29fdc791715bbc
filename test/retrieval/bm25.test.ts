import { describe, expect, it } from 'vitest';
import {
  bm25Parameters,
  encodeSparseDocument,
  encodeSparseQuery,
  tokenIdsOf,
} from '../../src/retrieval/bm25.ts';
import { murmur3Signed } from '../../src/retrieval/murmur3.ts';

// Reference values: Python `mmh3.hash(s)` (signed 32-bit) and FastEmbed's `abs(mmh3.hash(stem))`.
describe('murmur3 as mmh3.hash', () => {
  it('matches the published mmh3 values, signed', () => {
    expect(murmur3Signed('foo')).toBe(-156908512);
    expect(murmur3Signed('hello')).toBe(613153351);
    expect(murmur3Signed('')).toBe(0);
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    const viaBytes = murmur3Signed('héllo');
    expect(viaBytes).not.toBe(murmur3Signed('hello'));
    expect(murmur3Signed('héllo')).toBe(viaBytes);
  });
});

describe('BM25 sparse vectors (FastEmbed Qdrant/bm25)', () => {
  const id = (stem: string) => Math.abs(murmur3Signed(stem));

  it('lowercases, drops stop words and punctuation, stems with Snowball English', () => {
    expect(tokenIdsOf('The Running dogs, and the foxes!')).toEqual([id('run'), id('dog'), id('fox')]);
    expect(tokenIdsOf('generously gently fluently')).toEqual([id('generous'), id('gentl'), id('fluentli')]);
    expect(tokenIdsOf('_')).toEqual([]);
    expect(tokenIdsOf('snake_case _ __init__')).toHaveLength(2);
  });

  it('drops tokens longer than 40 characters', () => {
    expect(tokenIdsOf(`${'a'.repeat(41)} word`)).toEqual([id('word')]);
    expect(tokenIdsOf('b'.repeat(40))).toHaveLength(1);
  });

  it('weights documents with k1 = 1.2, b = 0.75, avgLen = 256 (hand-computed)', () => {
    // kept tokens: quick brown fox jump lazi dog dog sleep → |d| = 8
    const vector = encodeSparseDocument('The quick brown fox jumps over the lazy dog; the dog sleeps.');
    const norm = 1.2 * (1 - 0.75 + (0.75 * 8) / 256);
    const single = 2.2 / (1 + norm); // 1.6564705882…
    const double = (2 * 2.2) / (2 + norm); // 1.8899328859…
    const weights = new Map(vector.indices.map((index, position) => [index, vector.values[position]]));
    expect(weights.size).toBe(7);
    expect(weights.get(id('dog'))).toBeCloseTo(1.8899328859, 9);
    expect(weights.get(id('dog'))).toBeCloseTo(double, 12);
    expect(weights.get(id('lazi'))).toBeCloseTo(single, 12);
    expect(weights.get(id('quick'))).toBeCloseTo(1.6564705882, 9);
    expect(vector.indices).toEqual([...vector.indices].sort((a, b) => a - b));
    expect(bm25Parameters).toMatchObject({ k1: 1.2, b: 0.75, averageLength: 256 });
  });

  it('gives every unique query token weight 1', () => {
    const query = encodeSparseQuery('loops loops LOOP: how do loops work?');
    expect(query.indices).toEqual([id('loop'), id('work')].sort((a, b) => a - b));
    expect(query.values).toEqual([1, 1]);
  });

  it('returns an empty vector for text with no terms', () => {
    expect(encodeSparseDocument('the and, of !!')).toEqual({ indices: [], values: [] });
    expect(encodeSparseQuery('')).toEqual({ indices: [], values: [] });
  });
});

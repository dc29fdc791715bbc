import { describe, expect, it } from 'vitest';
import {
  bm25Parameters,
  encodeSparseChild,
  encodeSparseDocument,
  encodeSparseQuery,
  tokenIdsOf,
} from '../../src/retrieval/bm25.ts';
import { murmur3Bytes, murmur3Signed } from '../../src/retrieval/murmur3.ts';

// Reference values computed independently of this code: the published MurmurHash3_x86_32 test vectors
// (SMHasher's verification set as quoted with Appleby's reference implementation), and `mmh3.hash(s)`
// values from a direct Python port of MurmurHash3.cpp that reproduces every one of those vectors.
const unsigned = (value: number) => value >>> 0;
const bytes = (text: string) => new TextEncoder().encode(text);

describe('murmur3 as mmh3.hash', () => {
  it('reproduces the published MurmurHash3_x86_32 test vectors (with seeds)', () => {
    expect(unsigned(murmur3Bytes(new Uint8Array(0), 0))).toBe(0);
    expect(unsigned(murmur3Bytes(new Uint8Array(0), 1))).toBe(0x514e28b7);
    expect(unsigned(murmur3Bytes(new Uint8Array(0), 0xffffffff))).toBe(0x81f16f39);
    expect(unsigned(murmur3Bytes(new Uint8Array(4), 0))).toBe(0x2362f9de);
    expect(unsigned(murmur3Bytes(bytes('aaaa'), 0x9747b28c))).toBe(0x5a97808a);
    expect(unsigned(murmur3Bytes(bytes('abcd'), 0x9747b28c))).toBe(0xf0478627);
    expect(unsigned(murmur3Bytes(bytes('Hello, world!'), 0x9747b28c))).toBe(0x24884cba);
    expect(unsigned(murmur3Bytes(bytes('The quick brown fox jumps over the lazy dog'), 0x9747b28c))).toBe(
      0x2fa826cd,
    );
    // The published UTF-8 vector: eight π (U+03C0), 16 bytes.
    expect(unsigned(murmur3Bytes(bytes('ππππππππ'), 0x9747b28c))).toBe(0xd58063c1);
  });

  it('matches mmh3.hash (seed 0, signed) for ASCII', () => {
    expect(murmur3Signed('foo')).toBe(-156908512);
    expect(murmur3Signed('hello')).toBe(613153351);
    expect(murmur3Signed('')).toBe(0);
  });

  it('hashes the UTF-8 bytes of non-ASCII text (UTF-16 code units would give other numbers)', () => {
    // mmh3.hash(s) over UTF-8; hashing UTF-16LE instead gives the numbers in the comments.
    expect(murmur3Signed('café')).toBe(605818632); // UTF-16: -1807121063
    expect(murmur3Signed('größe')).toBe(-472672705); // UTF-16: -1691953777
    expect(murmur3Signed('日本語')).toBe(-1515949417); // UTF-16: 1004281861
    expect(murmur3Signed('π')).toBe(-241873418); // UTF-16: -1896594267
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

  it('gives non-ASCII words the token ids FastEmbed gives them (abs of mmh3 over the UTF-8 stem)', () => {
    // Stems: café, naïv, größe, façad, zürich, 日本語 (Snowball English keeps accented letters).
    expect(tokenIdsOf('Café naïve größe façade Zürich 日本語')).toEqual([
      605818632, 756638508, 472672705, 1681038935, 1253036297, 1515949417,
    ]);
  });

  it('drops tokens longer than 40 characters', () => {
    expect(tokenIdsOf(`${'a'.repeat(41)} word`)).toEqual([id('word')]);
    expect(tokenIdsOf('b'.repeat(40))).toHaveLength(1);
  });

  it('weights documents with k1 = 1.2, b = 0.4, avgLen = 256 (hand-computed)', () => {
    // kept tokens: quick brown fox jump lazi dog dog sleep → |d| = 8
    const vector = encodeSparseDocument('The quick brown fox jumps over the lazy dog; the dog sleeps.');
    const norm = 1.2 * (1 - 0.4 + (0.4 * 8) / 256); // 0.735
    const single = 2.2 / (1 + norm); // 1.2680115273…
    const double = (2 * 2.2) / (2 + norm); // 1.6087751371…
    const weights = new Map(vector.indices.map((index, position) => [index, vector.values[position]]));
    expect(weights.size).toBe(7);
    expect(weights.get(id('dog'))).toBeCloseTo(1.6087751371, 9);
    expect(weights.get(id('dog'))).toBeCloseTo(double, 12);
    expect(weights.get(id('lazi'))).toBeCloseTo(single, 12);
    expect(weights.get(id('quick'))).toBeCloseTo(1.2680115273, 9);
    expect(vector.indices).toEqual([...vector.indices].sort((a, b) => a - b));
    expect(bm25Parameters).toMatchObject({ k1: 1.2, b: 0.4, averageLength: 256, headingWeight: 2 });
  });

  it('counts the heading line of a child twice in tf and once in its length (hand-computed)', () => {
    // heading: bash pipelin (×2 in tf); body: pipelin connect command → |d| = 5
    const vector = encodeSparseChild('Bash › Pipelines\nA pipeline connects commands.');
    const norm = 1.2 * (1 - 0.4 + (0.4 * 5) / 256);
    const weights = new Map(vector.indices.map((index, position) => [index, vector.values[position]]));
    expect(weights.get(id('bash'))).toBeCloseTo((2 * 2.2) / (2 + norm), 12);
    expect(weights.get(id('pipelin'))).toBeCloseTo((3 * 2.2) / (3 + norm), 12);
    expect(weights.get(id('connect'))).toBeCloseTo(2.2 / (1 + norm), 12);
    // A text without a heading line is weighed as a plain document.
    expect(encodeSparseChild('A pipeline connects commands.')).toEqual(
      encodeSparseDocument('A pipeline connects commands.'),
    );
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

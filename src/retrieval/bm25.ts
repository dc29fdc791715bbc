/**
 * BM25 sparse vectors compatible with FastEmbed's `Qdrant/bm25` model, so that the embedded store and
 * Qdrant (with the `idf` modifier) score the same way:
 * - text: lowercased, every non-word character (Unicode letters, digits, `_`) is a separator;
 * - tokens: lone punctuation (`_`) dropped, NLTK English stop words dropped, tokens longer than
 *   40 characters dropped, then the Snowball English (Porter2) stemmer;
 * - token id: `abs(mmh3.hash(stem))` — MurmurHash3 x86/32, seed 0, UTF-8, signed then absolute;
 * - document weight: tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgLen)) with k1 = 1.2, b = 0.75,
 *   avgLen = 256 and |d| = number of kept tokens; IDF is applied by the store;
 * - query weight: 1 per unique token.
 * Pure functions; stems and ids are memoised because they dominate the cost on large manuals.
 */
import { newStemmer } from 'snowball-stemmers';
import type { SparseVector } from '../core/types.ts';
import { englishStopWords } from './english-stop-words.ts';
import { murmur3Signed } from './murmur3.ts';

export const bm25Parameters = Object.freeze({ k1: 1.2, b: 0.75, averageLength: 256, tokenMaxLength: 40 });

const stemmer = newStemmer('english');
const nonWord = /[^\p{L}\p{N}_]+/u;
const punctuation = /^\p{P}$/u;
const skip = -1;
const cacheLimit = 200_000;
const tokenIds = new Map<string, number>();

/** The token ids of a text, in order, repeats kept (the document length is their count). */
export function tokenIdsOf(text: string): number[] {
  const ids: number[] = [];
  for (const token of text.toLowerCase().split(nonWord)) {
    if (token === '') continue;
    let id = tokenIds.get(token);
    if (id === undefined) {
      id = computeTokenId(token);
      if (tokenIds.size >= cacheLimit) tokenIds.clear();
      tokenIds.set(token, id);
    }
    if (id !== skip) ids.push(id);
  }
  return ids;
}

function computeTokenId(token: string): number {
  if (punctuation.test(token)) return skip;
  if (englishStopWords.has(token)) return skip;
  if (codePointLength(token) > bm25Parameters.tokenMaxLength) return skip;
  const stem = stemmer.stem(token);
  if (stem === '') return skip;
  return Math.abs(murmur3Signed(stem));
}

function codePointLength(token: string): number {
  if (token.length <= bm25Parameters.tokenMaxLength) return token.length;
  let count = 0;
  for (const _ of token) count++;
  return count;
}

/** The document side: BM25 term-frequency weights, indices ascending. */
export function encodeSparseDocument(text: string): SparseVector {
  const ids = tokenIdsOf(text);
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const { k1, b, averageLength } = bm25Parameters;
  const lengthNorm = k1 * (1 - b + (b * ids.length) / averageLength);
  const indices = [...counts.keys()].sort((left, right) => left - right);
  const values = indices.map((id) => {
    const count = counts.get(id)!;
    return (count * (k1 + 1)) / (count + lengthNorm);
  });
  return { indices, values };
}

/** The query side: weight 1 for each unique token, indices ascending. */
export function encodeSparseQuery(text: string): SparseVector {
  const indices = [...new Set(tokenIdsOf(text))].sort((left, right) => left - right);
  return { indices, values: indices.map(() => 1) };
}

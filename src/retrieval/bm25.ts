/**
 * BM25 sparse vectors, tokenised as FastEmbed's `Qdrant/bm25` model does, so that the embedded store and
 * Qdrant (with the `idf` modifier) score the same way:
 * - text: lowercased, every non-word character (Unicode letters, digits, `_`) is a separator;
 * - tokens: lone punctuation (`_`) dropped, NLTK English stop words dropped, tokens longer than
 *   40 characters dropped, then the Snowball English (Porter2) stemmer;
 * - token id: `abs(mmh3.hash(stem))` — MurmurHash3 x86/32, seed 0, UTF-8, signed then absolute;
 * - document weight: tf·(k1+1) / (tf + k1·(1 − b + b·|d|/avgLen)) with k1 = 1.2, b = 0.4 and avgLen = 256
 *   (|d| = number of kept tokens); IDF is applied by the store. A child's first line is its section path
 *   (`indexedChildText`): `encodeSparseChild` counts each of its tokens `headingWeight` (2) times in tf
 *   and once in |d|, so a section's own title weighs more than a word in passing (a simple BM25F);
 * - query weight: 1 per unique token.
 * b = 0.4 (FastEmbed uses 0.75) and the heading weight were chosen on the tuning part of
 * bench/questions-paraphrased.jsonl (`npm run bench:chunking`, BENCHMARKS.md "Retrieval"): a child keeps
 * about 57 tokens against the fixed avgLen of 256, so with b = 0.75 a tiny child (a heading and one line)
 * outweighed the passage that explains; b = 0.4 halves that preference.
 * Documents indexed with other weights rank a little differently until `ragent reindex`: each document
 * records the `sparseWeightsVersion` its vectors were computed with, and `ragent doctor`, `docs list` and
 * the ingest summary flag the documents of an older one (index-health.ts).
 * Pure functions; stems and ids are memoised because they dominate the cost on large manuals.
 */
import { newStemmer } from 'snowball-stemmers';
import type { SparseVector } from '../core/types.ts';
import { englishStopWords } from './english-stop-words.ts';
import { murmur3Signed } from './murmur3.ts';

export interface Bm25Parameters {
  k1: number;
  b: number;
  averageLength: number;
  tokenMaxLength: number;
  /** How many times a heading token counts in a child's term frequency (`encodeSparseChild`). */
  headingWeight: number;
}

export const bm25Parameters: Readonly<Bm25Parameters> = Object.freeze({
  k1: 1.2,
  b: 0.4,
  averageLength: 256,
  tokenMaxLength: 40,
  headingWeight: 2,
});

/**
 * The version of the document weights this file computes, stored with every document (see
 * `DocumentRecord.sparseWeightsVersion`). **Bump it whenever tokenisation or the document weights change**
 * (stop words, stemmer, token ids, `bm25Parameters`, the heading weighting of `encodeSparseChild`,
 * `indexedChildText`): documents of an older version are then flagged until `ragent reindex`.
 * 1: FastEmbed's weights (b = 0.75, no heading weight), and every document written before versioning;
 * 2: b = 0.4 and the section path counted `headingWeight` times.
 */
export const sparseWeightsVersion = 2;

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
export function encodeSparseDocument(
  text: string,
  parameters: Bm25Parameters = bm25Parameters,
): SparseVector {
  return weigh(tokenIdsOf(text), [], parameters);
}

/**
 * A child as indexed (`indexedChildText`: its section path, a newline, its text): the first line is the
 * heading field, whose tokens count `headingWeight` times in tf; every token counts once in |d|.
 */
export function encodeSparseChild(text: string, parameters: Bm25Parameters = bm25Parameters): SparseVector {
  const newline = text.indexOf('\n');
  if (newline < 0) return weigh(tokenIdsOf(text), [], parameters);
  return weigh(tokenIdsOf(text.slice(newline + 1)), tokenIdsOf(text.slice(0, newline)), parameters);
}

function weigh(
  body: readonly number[],
  heading: readonly number[],
  parameters: Bm25Parameters,
): SparseVector {
  const counts = new Map<number, number>();
  for (const id of body) counts.set(id, (counts.get(id) ?? 0) + 1);
  for (const id of heading) counts.set(id, (counts.get(id) ?? 0) + parameters.headingWeight);
  const { k1, b, averageLength } = parameters;
  const lengthNorm = k1 * (1 - b + (b * (body.length + heading.length)) / averageLength);
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

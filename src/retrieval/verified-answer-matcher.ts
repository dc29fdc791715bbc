/**
 * Whether a question means the same as a verified one of its scopes, so the verified answer can be
 * served as it is. Matched on meaning, not exact words:
 *
 * - lexically (always): BM25 over the scopes' verified questions, with the tokens of `bm25.ts`
 *   (lowercased, stop words dropped, stemmed). The score is the harmonic mean of two coverages, each in
 *   [0, 1]: how much of the verified question's BM25 weight the user's question has (its own BM25 score
 *   divided by the verified question's score against itself), and which share of the user's distinct
 *   terms the verified question has (so a long question that merely mentions the same words scores low);
 * - with embeddings on (RAGENT_EMBEDDINGS other than none), also by the cosine of the two questions'
 *   embeddings: a question matches when either score reaches its threshold.
 *
 * The lexical threshold was set by measurement on the tuning part of bench/verified-answers-set.json
 * (`npm run bench:verified`, docs/operators.md): the lowest threshold at which no unrelated question
 * matched. An unrelated question must never get a verified answer, so precision comes first.
 */
import type { Embedder } from '../core/model-provider.ts';
import type { Scope } from '../core/types.ts';
import type { VerifiedAnswer, VerifiedAnswers } from '../core/verified-answers.ts';
import { bm25Parameters, tokenIdsOf } from './bm25.ts';

/** Chosen with `npm run bench:verified` (docs/operators.md, "Verified answers"). */
export const lexicalMatchThreshold = 0.45;
/**
 * Cosine of the two questions' embeddings at or above which they mean the same. Not measured here (no
 * embedding model runs in this repository's tests and benches): deliberately strict.
 */
export const embeddingMatchThreshold = 0.9;

export interface VerifiedMatch {
  answer: VerifiedAnswer;
  /** The lexical score, or the cosine when the embeddings matched. */
  score: number;
  by: 'lexical' | 'embedding';
}

export interface VerifiedAnswerMatcher {
  /** The verified answer of `scopes` that means the same as `question`, if one does. */
  match(question: string, scopes: readonly Scope[], signal?: AbortSignal): Promise<VerifiedMatch | undefined>;
}

export interface MatcherOptions {
  answers: Pick<VerifiedAnswers, 'listVerifiedAnswers'>;
  /** Set when embeddings are on: matching is hybrid. */
  embedder?: Embedder;
  lexicalThreshold?: number;
  embeddingThreshold?: number;
}

export function createVerifiedAnswerMatcher(options: MatcherOptions): VerifiedAnswerMatcher {
  const lexicalThreshold = options.lexicalThreshold ?? lexicalMatchThreshold;
  const embeddingThreshold = options.embeddingThreshold ?? embeddingMatchThreshold;
  // A verified question's embedding, by its text (verified questions rarely change; kept bounded).
  const embeddings = new Map<string, Float32Array>();
  return {
    async match(question, scopes, signal) {
      const candidates = await options.answers.listVerifiedAnswers(scopes);
      if (candidates.length === 0) return undefined;
      const scores = lexicalScores(
        question,
        candidates.map((candidate) => candidate.question),
      );
      const best = bestOf(scores);
      if (best && best.score >= lexicalThreshold) {
        const answer = candidates[best.index];
        if (answer) return { answer, score: best.score, by: 'lexical' };
      }
      const { embedder } = options;
      if (!embedder) return undefined;
      const missing = [...new Set(candidates.map((candidate) => candidate.question))].filter(
        (text) => !embeddings.has(text),
      );
      const vectors = await embedder.embed([question, ...missing], signal ? { signal } : {});
      if (embeddings.size + missing.length > maxCachedEmbeddings) embeddings.clear();
      missing.forEach((text, index) => {
        const vector = vectors[index + 1];
        if (vector) embeddings.set(text, vector);
      });
      const asked = vectors[0];
      if (!asked) return undefined;
      const cosines = candidates.map((candidate) => {
        const vector = embeddings.get(candidate.question);
        return vector ? cosine(asked, vector) : 0;
      });
      const closest = bestOf(cosines);
      if (!closest || closest.score < embeddingThreshold) return undefined;
      const answer = candidates[closest.index];
      return answer ? { answer, score: closest.score, by: 'embedding' } : undefined;
    },
  };
}

const maxCachedEmbeddings = 10_000;

/**
 * The lexical score of `question` against each of `candidates` (see the file comment), in [0, 1]; the
 * inverse document frequencies come from the candidates themselves.
 */
export function lexicalScores(question: string, candidates: readonly string[]): number[] {
  const documents = candidates.map((candidate) => termCounts(tokenIdsOf(candidate)));
  const frequency = new Map<number, number>();
  for (const document of documents)
    for (const term of document.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const total = documents.length;
  const averageLength =
    documents.reduce((sum, document) => sum + document.length, 0) / Math.max(1, total) || 1;
  const idf = (term: number) => {
    const seen = frequency.get(term) ?? 0;
    return Math.log(1 + (total - seen + 0.5) / (seen + 0.5));
  };
  const asked = new Set(tokenIdsOf(question));
  return documents.map((document) => {
    if (asked.size === 0 || document.length === 0) return 0;
    const { k1, b } = bm25Parameters;
    const norm = k1 * (1 - b + (b * document.length) / averageLength);
    let matched = 0;
    let whole = 0;
    let shared = 0;
    for (const [term, count] of document.counts) {
      const weight = (idf(term) * (count * (k1 + 1))) / (count + norm);
      whole += weight;
      if (asked.has(term)) {
        matched += weight;
        shared++;
      }
    }
    if (whole === 0 || shared === 0) return 0;
    const coverage = matched / whole;
    const precision = shared / asked.size;
    return (2 * coverage * precision) / (coverage + precision);
  });
}

function termCounts(terms: readonly number[]): { counts: Map<number, number>; length: number } {
  const counts = new Map<number, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: terms.length };
}

function bestOf(scores: readonly number[]): { index: number; score: number } | undefined {
  let best: { index: number; score: number } | undefined;
  scores.forEach((score, index) => {
    if (!best || score > best.score) best = { index, score };
  });
  return best;
}

function cosine(left: Float32Array, right: Float32Array): number {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const a = left[index] ?? 0;
    const b = right[index] ?? 0;
    dot += a * b;
    leftNorm += a * a;
    rightNorm += b * b;
  }
  return leftNorm === 0 || rightNorm === 0 ? 0 : dot / Math.sqrt(leftNorm * rightNorm);
}

/**
 * `npm run bench:verified`: how well verified answers are matched lexically (RAGENT_EMBEDDINGS=none) on
 * bench/verified-answers-set.json — paraphrases of 12 verified questions in a user's words, and
 * unrelated questions that must never match. For each threshold: precision (matches that were the
 * right verified answer), recall (paraphrases that got theirs) and how many unrelated questions
 * matched. The threshold is chosen on the tuning part — the lowest with no wrong match at all — and
 * the held-out part is then measured at that threshold, never tuned on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lexicalMatchThreshold, lexicalScores } from '../src/retrieval/verified-answer-matcher.ts';

interface Case {
  question: string;
  expected: string | null;
}

interface EvaluationSet {
  verified: Array<{ id: string; question: string }>;
  tuning: Case[];
  heldOut: Case[];
}

const set = JSON.parse(
  readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'verified-answers-set.json'), 'utf8'),
) as EvaluationSet;
const questions = set.verified.map((verified) => verified.question);

/**
 * The best verified answer for each case, with its score. `alone`: each verified question scored as
 * the only one of its scope (the inverse document frequencies then weigh its terms alike), as in a
 * scope with a single verified answer.
 */
function scored(cases: readonly Case[], alone = false) {
  return cases.map((item) => {
    const scores = alone
      ? questions.map((question) => lexicalScores(item.question, [question])[0] ?? 0)
      : lexicalScores(item.question, questions);
    let best = 0;
    scores.forEach((score, index) => {
      if (score > (scores[best] ?? 0)) best = index;
    });
    return { ...item, best: set.verified[best]?.id, score: scores[best] ?? 0 };
  });
}

function measure(results: ReturnType<typeof scored>, threshold: number) {
  const matched = results.filter((result) => result.score >= threshold);
  const right = matched.filter((result) => result.expected !== null && result.best === result.expected);
  const paraphrases = results.filter((result) => result.expected !== null).length;
  return {
    threshold,
    matched: matched.length,
    precision: matched.length === 0 ? 1 : right.length / matched.length,
    recall: right.length / paraphrases,
    wrong: matched.length - right.length,
    unrelatedMatched: matched.filter((result) => result.expected === null).length,
  };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`.padStart(6);
const row = (figures: ReturnType<typeof measure>) =>
  `${figures.threshold.toFixed(2)}  ${percent(figures.precision)}  ${percent(figures.recall)}  ${String(figures.wrong).padStart(5)}  ${String(figures.unrelatedMatched).padStart(9)}`;

const tuning = scored(set.tuning);
const heldOut = scored(set.heldOut);
const thresholds = Array.from({ length: 15 }, (_, index) => 0.25 + index * 0.05);
console.log(
  `Verified answers, lexical matching: ${set.verified.length} verified questions; tuning ${set.tuning.length} questions, held-out ${set.heldOut.length}.`,
);
console.log('\nTuning part\nthreshold  precision  recall  wrong  unrelated');
for (const threshold of thresholds) console.log(row(measure(tuning, threshold)));
const chosen = thresholds.find((threshold) => measure(tuning, threshold).wrong === 0);
console.log(
  `\nLowest threshold with no wrong match on the tuning part: ${chosen?.toFixed(2) ?? 'none'} (in use: ${lexicalMatchThreshold.toFixed(2)}).`,
);
console.log('\nHeld-out part at the threshold in use\nthreshold  precision  recall  wrong  unrelated');
console.log(row(measure(heldOut, lexicalMatchThreshold)));
console.log('\nHeld-out part at the threshold in use, each verified answer alone in its scope');
console.log(row(measure(scored(set.heldOut, true), lexicalMatchThreshold)));
console.log('Tuning part at the threshold in use, each verified answer alone in its scope');
console.log(row(measure(scored(set.tuning, true), lexicalMatchThreshold)));
console.log('\nHeld-out part, every threshold (for reference, not for choosing)');
for (const threshold of thresholds) console.log(row(measure(heldOut, threshold)));
const unrelatedTop = [...tuning, ...heldOut]
  .filter((result) => result.expected === null)
  .sort((left, right) => right.score - left.score)
  .slice(0, 5);
console.log('\nHighest-scoring unrelated questions:');
for (const result of unrelatedTop)
  console.log(`  ${result.score.toFixed(3)}  ${result.question} → ${result.best}`);

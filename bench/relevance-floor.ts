/**
 * npm run bench:floor -- <on-topic-eval.json> <off-topic-eval.json> [floor …]
 * What a relevance floor (RAGENT_MIN_RELEVANCE) would do, from two `ragent eval <file> --json` reports
 * of the same index: one over questions the documents answer (bench/questions.jsonl), one over questions
 * they do not (bench/off-topic-questions.jsonl). For each floor it prints how many questions would be
 * left with no hit at all ("NO_RELEVANT_CHUNKS"), and how many on-topic questions would lose the passage
 * holding their evidence. BENCH_DOCS=a.pdf,b.pdf names the documents the index holds: questions of the
 * first report about other documents then count as off-topic.
 */
import { readFileSync } from 'node:fs';
import type { EvalReport } from '../src/retrieval/evaluation.ts';

const [onTopicFile, offTopicFile, ...floorArguments] = process.argv.slice(2);
if (!onTopicFile || !offTopicFile) {
  console.error(
    'usage: npm run bench:floor -- <on-topic-eval.json> <off-topic-eval.json> [floor …]\n' +
      'make the reports with: ragent eval bench/questions.jsonl --json > on.json (and bench/off-topic-questions.jsonl)',
  );
  process.exit(1);
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as EvalReport;
const indexed = (process.env.BENCH_DOCS ?? '').split(',').filter(Boolean);
const asked = read(onTopicFile);
const outside = (item: EvalReport['items'][number]) =>
  indexed.length > 0 && !indexed.includes(item.doc ?? '');
const onTopic = { ...asked, items: asked.items.filter((item) => !outside(item)) };
const offTopicReport = read(offTopicFile);
const offTopic = { ...offTopicReport, items: [...offTopicReport.items, ...asked.items.filter(outside)] };
const floors = floorArguments.length > 0 ? floorArguments.map(Number) : [0, 4, 6, 8, 9.5, 12];

const best = (report: EvalReport) => report.items.map((item) => item.top[0]?.score ?? 0);
const evidenceScores = onTopic.items.flatMap((item) =>
  item.rank === null ? [] : [item.top[item.rank - 1]?.score ?? 0],
);
const range = (values: number[]) =>
  values.length === 0 ? '-' : `${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}`;
console.log(`best-hit score, on-topic:  ${range(best(onTopic))} over ${onTopic.items.length} questions`);
console.log(`best-hit score, off-topic: ${range(best(offTopic))} over ${offTopic.items.length} questions`);
console.log(
  `score of the first evidence hit: ${range(evidenceScores)} over ${evidenceScores.length} questions`,
);
console.log('floor    off-topic with no hit   on-topic with no hit   on-topic evidence lost');
for (const floor of floors) {
  const empty = (report: EvalReport) => best(report).filter((score) => score < floor).length;
  const lost = evidenceScores.filter((score) => score < floor).length;
  console.log(
    `${String(floor).padEnd(8)} ${`${empty(offTopic)}/${offTopic.items.length}`.padEnd(23)} ${`${empty(onTopic)}/${onTopic.items.length}`.padEnd(22)} ${lost}/${evidenceScores.length}`,
  );
}

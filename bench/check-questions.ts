/**
 * npx tsx bench/check-questions.ts [questions.jsonl] [corpus dir] — checks that every evidence phrase of a
 * question set occurs (case-insensitive, whitespace collapsed) in ragent's own extraction of the page the
 * question names (the blocks that cover that page), and prints each one that does not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pdfToBlocks } from '../src/ingest/pdf-to-markdown.ts';
import type { TextBlock } from '../src/ingest/text-block.ts';
import { normalizeForMatch, parseQuestions } from '../src/retrieval/evaluation.ts';

const file = path.resolve(process.argv[2] ?? 'bench/questions-paraphrased.jsonl');
const corpus = path.resolve(process.argv[3] ?? '../shared/corpus');
const questions = parseQuestions(readFileSync(file, 'utf8'), file);
const blocksByDoc = new Map<string, TextBlock[]>();
let missing = 0;
for (const question of questions) {
  if (!question.doc || question.page === undefined) continue;
  let blocks = blocksByDoc.get(question.doc);
  if (!blocks) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, question.doc)));
    blocks = (await pdfToBlocks(bytes, { name: question.doc, workers: 2 })).blocks;
    blocksByDoc.set(question.doc, blocks);
  }
  const page = question.page;
  const text = normalizeForMatch(
    blocks
      .filter((block) => block.pageStart <= page && block.pageEnd >= page)
      .map((block) => block.text)
      .join(' '),
  );
  for (const phrase of question.evidence ?? []) {
    if (!text.includes(normalizeForMatch(phrase))) {
      missing++;
      console.log(`not on page ${page} of ${question.doc}: ${JSON.stringify(phrase)}`);
    }
  }
}
console.log(`${questions.length} questions, ${missing} evidence phrases not found on their page`);
process.exitCode = missing > 0 ? 1 : 0;

/**
 * npx tsx bench/check-questions.ts [questions.jsonl] [corpus dir] — checks a question set against ragent's
 * own extraction and chunking, in the form the eval compares text (`normalizeForMatch`):
 * - every evidence phrase occurs on the page the question names (the blocks that cover that page);
 * - all of a question's evidence lies within one parent, and within one child (default chunk settings),
 *   so that a hit is possible at all — a question whose evidence is split across children can reach
 *   parent hit@k but never evidence hit@k.
 * Prints each phrase or question that fails, then the counts; exits 1 when a phrase is not on its page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkDocument } from '../src/ingest/chunk.ts';
import { pdfToBlocks } from '../src/ingest/pdf-to-markdown.ts';
import type { TextBlock } from '../src/ingest/text-block.ts';
import { normalizeForMatch, parseQuestions } from '../src/retrieval/evaluation.ts';
import { corpusDirectory } from './corpus-path.ts';

const file = path.resolve(process.argv[2] ?? 'bench/questions-paraphrased.jsonl');
const corpus = path.resolve(process.argv[3] ?? process.env.RAGENT_CORPUS_DIR ?? corpusDirectory());
const questions = parseQuestions(readFileSync(file, 'utf8'), file);
interface Extracted {
  blocks: TextBlock[];
  children: string[];
  parents: string[];
}
const byDoc = new Map<string, Extracted>();
let missing = 0;
let notInOneParent = 0;
let notInOneChild = 0;
for (const question of questions) {
  if (!question.doc) continue;
  let extracted = byDoc.get(question.doc);
  if (!extracted) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, question.doc)));
    const blocks = (await pdfToBlocks(bytes, { name: question.doc, workers: 2 })).blocks;
    const chunks = chunkDocument(blocks, {
      documentId: question.doc,
      documentName: question.doc,
      scope: 'shared',
    });
    extracted = {
      blocks,
      children: chunks.children.map((child) => normalizeForMatch(child.text)),
      parents: chunks.parents.map((parent) => normalizeForMatch(parent.text)),
    };
    byDoc.set(question.doc, extracted);
  }
  const evidence = (question.evidence ?? []).map(normalizeForMatch);
  const page = question.page;
  if (page !== undefined) {
    const text = normalizeForMatch(
      extracted.blocks
        .filter((block) => block.pageStart <= page && block.pageEnd >= page)
        .map((block) => block.text)
        .join(' '),
    );
    for (const [at, phrase] of evidence.entries()) {
      if (!text.includes(phrase)) {
        missing++;
        console.log(`not on page ${page} of ${question.doc}: ${JSON.stringify(question.evidence?.[at])}`);
      }
    }
  }
  if (evidence.length === 0) continue;
  const within = (texts: string[]) => texts.some((text) => evidence.every((phrase) => text.includes(phrase)));
  if (!within(extracted.parents)) {
    notInOneParent++;
    console.log(`evidence not within one parent: ${question.question}`);
  } else if (!within(extracted.children)) {
    notInOneChild++;
    console.log(`evidence split across children: ${question.question}`);
  }
}
console.log(
  `${questions.length} questions: ${missing} evidence phrases not found on their page; ` +
    `evidence not within one parent ${notInOneParent}, within one parent but split across children ${notInOneChild}`,
);
process.exitCode = missing > 0 ? 1 : 0;

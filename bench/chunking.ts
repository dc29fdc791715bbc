/**
 * npm run bench:chunking [questions.jsonl] [corpus dir] — measures chunk settings on a question set,
 * BM25 only, k = 5: child size/overlap × the per-parent cap of a search. Each corpus PDF is extracted
 * once; for each child size its chunks go into an in-memory BM25 index that ranks exactly as the
 * embedded store does (same sparse vectors, same IDF), then `limitPerParent` applies the cap.
 * Prints, for the tuning part and the held-out part of the set: evidence hit@5 (in the children the
 * search returns), parent hit@5 and @1 (in their parents), MRR, and the tokens the agent reads when a
 * search returns the children or their parents. Pick on the tuning part; confirm on the held-out one.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type { ChildChunk, ParentChunk, SearchHit } from '../src/core/types.ts';
import { countTokens } from '../src/graph/token-counter.ts';
import { type ChunkOptions, chunkDocument, defaultChunkOptions } from '../src/ingest/chunk.ts';
import { pdfToBlocks } from '../src/ingest/pdf-to-markdown.ts';
import type { TextBlock } from '../src/ingest/text-block.ts';
import { encodeSparseDocument, encodeSparseQuery } from '../src/retrieval/bm25.ts';
import type { Retriever } from '../src/retrieval/chunk-index.ts';
import { candidatePoolSize, limitPerParent } from '../src/retrieval/diversify.ts';
import { type EvalMetrics, evaluateRetrieval, parseQuestions } from '../src/retrieval/evaluation.ts';

const questionsFile = path.resolve(process.argv[2] ?? 'bench/questions-paraphrased.jsonl');
const corpus = path.resolve(process.argv[3] ?? process.env.RAGENT_CORPUS_DIR ?? '../shared/corpus');
const k = 5;
const childSettings: [number, number][] = [
  [500, 100],
  [800, 150],
  [1000, 200],
  [1200, 200],
];
const caps: [string, number][] = [
  ['2', 2],
  ['3', 3],
  ['none', Number.POSITIVE_INFINITY],
];

const questions = parseQuestions(readFileSync(questionsFile, 'utf8'), questionsFile);
const documents = [...new Set(questions.map((question) => question.doc).filter(Boolean))] as string[];
const extracted = new Map<string, TextBlock[]>();
for (const name of documents) {
  const bytes = new Uint8Array(readFileSync(path.join(corpus, name)));
  extracted.set(name, (await pdfToBlocks(bytes, { name, workers: 2 })).blocks);
}

/** BM25 over children in memory, ranked as the embedded index ranks them (search-snapshot.ts). */
export function memoryRetriever(
  parents: ParentChunk[],
  children: ChildChunk[],
  perParent: number,
): Retriever {
  const postings = new Map<number, { position: number; weight: number }[]>();
  children.forEach((child, position) => {
    const sparse = encodeSparseDocument(child.text);
    sparse.indices.forEach((token, at) => {
      const list = postings.get(token) ?? [];
      postings.set(token, list);
      list.push({ position, weight: sparse.values[at] ?? 0 });
    });
  });
  const parentById = new Map(parents.map((parent) => [parent.id, parent]));
  return {
    async search(text, options) {
      const scores = new Map<number, number>();
      for (const token of encodeSparseQuery(text).indices) {
        const list = postings.get(token);
        if (!list) continue;
        const idf = Math.log(1 + (children.length - list.length + 0.5) / (list.length + 0.5));
        for (const { position, weight } of list)
          scores.set(position, (scores.get(position) ?? 0) + idf * weight);
      }
      const ranked: SearchHit[] = [...scores]
        .sort((left, right) => right[1] - left[1] || left[0] - right[0])
        .slice(0, candidatePoolSize(options.k))
        .map(([position, score]) => ({ child: children[position] as ChildChunk, score }));
      return limitPerParent(ranked, options.k, perParent);
    },
    async getParent(parentId) {
      return parentById.get(parentId);
    },
    async getDocuments() {
      return [];
    },
  };
}

const row = (label: string, metrics: EvalMetrics) =>
  `${label.padEnd(16)} ${metrics.hitAtK.toFixed(3)}    ${metrics.parentHitAtK.toFixed(3)}     ${metrics.parentHitAt1.toFixed(3)}     ${metrics.mrr.toFixed(3)}  ${String(Math.round(metrics.childTokens)).padStart(6)}  ${String(Math.round(metrics.parentTokens)).padStart(6)}`;
const header = `size/overlap cap  ev@${k}     parent@${k}  parent@1  MRR    tok(children) tok(parents)`;
const tuningRows: string[] = [];
const heldOutRows: string[] = [];
for (const [childSize, childOverlap] of childSettings) {
  const options: ChunkOptions = { ...defaultChunkOptions, childSize, childOverlap };
  const parents: ParentChunk[] = [];
  const children: ChildChunk[] = [];
  for (const [name, blocks] of extracted) {
    const chunks = chunkDocument(
      blocks,
      { documentId: `${name}-0123456789`, documentName: name, scope: 'shared' },
      options,
    );
    parents.push(...chunks.parents);
    children.push(...chunks.children);
  }
  for (const [capLabel, cap] of caps) {
    const report = await evaluateRetrieval(memoryRetriever(parents, children, cap), questions, {
      scopes: ['shared'],
      k,
      countTokens,
    });
    const label = `${childSize}/${childOverlap} ${capLabel}`;
    // A set without held-out lines is reported whole, as the tuning part.
    tuningRows.push(row(label, report.splits?.tuning ?? { questions: questions.length, ...report }));
    if (report.splits) heldOutRows.push(row(label, report.splits.heldOut));
  }
}
const tuningCount = questions.filter((question) => !question.heldOut).length;
console.log(`${questions.length} questions over ${documents.length} PDFs, BM25 only, k = ${k}`);
console.log(`load avg ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`);
console.log(`\nTuning part (${tuningCount} questions)\n${header}\n${tuningRows.join('\n')}`);
console.log(
  `\nHeld-out part (${questions.length - tuningCount} questions)\n${header}\n${heldOutRows.join('\n')}`,
);

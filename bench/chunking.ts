/**
 * npm run bench:chunking [questions.jsonl] [corpus dir] — measures chunk settings and ranking on a question
 * set, BM25 only, k = 5, in two layouts of the scopes:
 * - one scope: all the manuals of the set in one scope (IDF over all of them, the big manual crowding in);
 * - a scope per manual: each question searches the scope of its own manual, as in a channel that has its
 *   manual (the layout the targets are meant for: a user's channel with its manuals).
 * Each corpus PDF is extracted once; for each child size its chunks go into an in-memory BM25 index that
 * ranks exactly as the embedded store does (same sparse vectors, same IDF), then `limitPerParent` applies
 * the cap. Part 1: child size/overlap × the per-parent cap, with the ranking in use. Part 2: at the chosen
 * chunks, the BM25 document weights before and after each change (b, the heading weight, k1).
 * Prints, for the tuning part and the held-out part of the set: evidence hit@5 (in the children the search
 * returns), parent hit@5 and @1 (in their parents), both@5 (the children or the first one's parent), MRR,
 * and the tokens the agent reads when a search returns the children, their parents, or both. Pick on the
 * tuning part; confirm on the held-out one.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type { ChildChunk, ParentChunk, SearchHit, SparseVector } from '../src/core/types.ts';
import { countTokens } from '../src/graph/token-counter.ts';
import { type ChunkOptions, chunkDocument, defaultChunkOptions } from '../src/ingest/chunk.ts';
import { pdfToBlocks } from '../src/ingest/pdf-to-markdown.ts';
import type { TextBlock } from '../src/ingest/text-block.ts';
import {
  type Bm25Parameters,
  bm25Parameters,
  encodeSparseChild,
  encodeSparseQuery,
} from '../src/retrieval/bm25.ts';
import type { Retriever } from '../src/retrieval/chunk-index.ts';
import { candidatePoolSize, childrenPerParent, limitPerParent } from '../src/retrieval/diversify.ts';
import {
  type EvalItem,
  type EvalMetrics,
  type EvalQuestion,
  evaluateRetrieval,
  metricsOf,
  parseQuestions,
} from '../src/retrieval/evaluation.ts';
import { corpusDirectory } from './corpus-path.ts';

const questionsFile = path.resolve(process.argv[2] ?? 'bench/questions-paraphrased.jsonl');
const corpus = path.resolve(process.argv[3] ?? process.env.RAGENT_CORPUS_DIR ?? corpusDirectory());
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
const before: Bm25Parameters = { ...bm25Parameters, b: 0.75, headingWeight: 1 };
const rankings: [string, Bm25Parameters][] = [
  ['b .75, head ×1 (before)', before],
  ['b .4, head ×1', { ...before, b: 0.4 }],
  ['b .75, head ×2', { ...before, headingWeight: 2 }],
  ['b .4, head ×2 (now)', bm25Parameters],
  ['b .4, head ×2, k1 2', { ...bm25Parameters, k1: 2 }],
  ['b .4, head ×3', { ...bm25Parameters, headingWeight: 3 }],
];
type Layout = 'one scope' | 'per manual';
const layouts: Layout[] = ['one scope', 'per manual'];

const questions = parseQuestions(readFileSync(questionsFile, 'utf8'), questionsFile);
const documents = [...new Set(questions.map((question) => question.doc).filter(Boolean))] as string[];
const extracted = new Map<string, TextBlock[]>();
for (const name of documents) {
  const bytes = new Uint8Array(readFileSync(path.join(corpus, name)));
  extracted.set(name, (await pdfToBlocks(bytes, { name, workers: 2 })).blocks);
}

/** BM25 over children in memory, ranked as the embedded index ranks them (snapshot-segment.ts). */
export function memoryRetriever(
  parents: ParentChunk[],
  children: ChildChunk[],
  sparse: SparseVector[],
  perParent: number,
): Retriever {
  const postings = new Map<number, { position: number; weight: number }[]>();
  children.forEach((_child, position) => {
    const vector = sparse[position]!;
    vector.indices.forEach((token, at) => {
      const list = postings.get(token) ?? [];
      postings.set(token, list);
      list.push({ position, weight: vector.values[at] ?? 0 });
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

interface Indexed {
  parents: ParentChunk[];
  children: ChildChunk[];
}

function chunkAll(options: ChunkOptions): Map<string, Indexed> {
  const byDocument = new Map<string, Indexed>();
  for (const [name, blocks] of extracted) {
    const source = { documentId: `${name}-0123456789`, documentName: name, scope: 'shared' };
    byDocument.set(name, chunkDocument(blocks, source, options));
  }
  return byDocument;
}

/** The items of every question, searched in one scope of all manuals or in its own manual's scope. */
async function evaluateLayout(
  chunks: Map<string, Indexed>,
  parameters: Bm25Parameters,
  perParent: number,
  layout: Layout,
): Promise<EvalItem[]> {
  const groups: [Indexed, EvalQuestion[]][] =
    layout === 'one scope'
      ? [
          [
            {
              parents: [...chunks.values()].flatMap((entry) => entry.parents),
              children: [...chunks.values()].flatMap((entry) => entry.children),
            },
            questions,
          ],
        ]
      : [...chunks].map(([name, entry]) => [entry, questions.filter((question) => question.doc === name)]);
  const items: EvalItem[] = [];
  for (const [{ parents, children }, asked] of groups) {
    const sparse = children.map((child) => encodeSparseChild(child.text, parameters));
    const report = await evaluateRetrieval(memoryRetriever(parents, children, sparse, perParent), asked, {
      scopes: ['shared'],
      k,
      countTokens,
    });
    items.push(...report.items);
  }
  // Keep the set's order, so both layouts list the same questions in the same places.
  const order = new Map(questions.map((question, index) => [question.question, index]));
  return items.sort((left, right) => (order.get(left.question) ?? 0) - (order.get(right.question) ?? 0));
}

const number = (value: number) => String(Math.round(value)).padStart(6);
const row = (label: string, metrics: EvalMetrics) =>
  `${label.padEnd(26)} ${metrics.hitAtK.toFixed(3)}  ${metrics.parentHitAtK.toFixed(3)}     ${metrics.parentHitAt1.toFixed(3)}     ${metrics.bothHitAtK.toFixed(3)}   ${metrics.mrr.toFixed(3)}  ${number(metrics.childTokens)}  ${number(metrics.parentTokens)}  ${number(metrics.bothTokens)}`;
const header = `${'setting'.padEnd(26)} ev@${k}   parent@${k}  parent@1  both@${k}  MRR    tokens: children parents  both`;
const tables = new Map<string, string[]>();
const add = (table: string, line: string) => tables.set(table, [...(tables.get(table) ?? []), line]);
const record = (part: string, layout: Layout, label: string, items: EvalItem[]) => {
  add(`${part}, ${layout}, tuning part`, row(label, metricsOf(items.filter((item) => !item.heldOut))));
  const heldOut = items.filter((item) => item.heldOut);
  if (heldOut.length > 0) add(`${part}, ${layout}, held-out part`, row(label, metricsOf(heldOut)));
};

for (const [childSize, childOverlap] of childSettings) {
  const chunks = chunkAll({ ...defaultChunkOptions, childSize, childOverlap });
  for (const layout of layouts) {
    for (const [capLabel, cap] of caps) {
      const items = await evaluateLayout(chunks, bm25Parameters, cap, layout);
      record('Chunks', layout, `${childSize}/${childOverlap} cap ${capLabel}`, items);
    }
  }
}
const chosen = chunkAll(defaultChunkOptions);
for (const layout of layouts) {
  for (const [label, parameters] of rankings) {
    record('Ranking', layout, label, await evaluateLayout(chosen, parameters, childrenPerParent, layout));
  }
}

const tuningCount = questions.filter((question) => !question.heldOut).length;
console.log(
  `${questions.length} questions (${tuningCount} tuning, ${questions.length - tuningCount} held out) over ` +
    `${documents.length} PDFs, BM25 only, k = ${k}; load avg ${loadavg()[0]?.toFixed(2)} on ${cpus().length} cores`,
);
console.log(
  `Chunks: child size/overlap × cap, ranking as now; Ranking: ${defaultChunkOptions.childSize}/` +
    `${defaultChunkOptions.childOverlap} cap ${childrenPerParent}, BM25 document weights (k1 ${bm25Parameters.k1} unless said)`,
);
for (const [title, lines] of tables) console.log(`\n${title}\n${header}\n${lines.join('\n')}`);

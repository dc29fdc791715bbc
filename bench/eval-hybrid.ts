/**
 * npm run bench:eval-hybrid [questions.jsonl] [corpus dir] — the hybrid plumbing end to end with a fake
 * embedder: starts the test fake of Ollama (its embeddings are a hashed bag of words, so this shows the
 * dense half is computed, stored, queried and fused — not what a real embedding model would score),
 * ingests the corpus PDFs named by the question set through the real ingestion service with
 * RAGENT_EMBEDDINGS=ollama into a temporary embedded index, and evaluates the set twice on that index:
 * BM25 only, and hybrid (BM25 + dense, fused with RRF). Same as
 *   RAGENT_EMBEDDINGS=ollama OLLAMA_BASE_URL=<fake> ragent eval <set>
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { sharedScope } from '../src/core/types.ts';
import { countTokens } from '../src/graph/token-counter.ts';
import { createIngestion } from '../src/ingest/ingestion-service.ts';
import { createLogger } from '../src/logger.ts';
import { createEmbedder } from '../src/models/create-models.ts';
import { createRetriever } from '../src/retrieval/create-retriever.ts';
import { type EvalMetrics, evaluateRetrieval, parseQuestions } from '../src/retrieval/evaluation.ts';
import { openChunkIndex } from '../src/retrieval/open-chunk-index.ts';
import { startFakeOllama } from '../test/fakes/fake-ollama.ts';

const questionsFile = path.resolve(process.argv[2] ?? 'bench/questions-paraphrased.jsonl');
const corpus = path.resolve(process.argv[3] ?? process.env.RAGENT_CORPUS_DIR ?? '../shared/corpus');
const questions = parseQuestions(readFileSync(questionsFile, 'utf8'), questionsFile);
const documents = [...new Set(questions.map((question) => question.doc).filter(Boolean))] as string[];
const fake = await startFakeOllama({ embedDimension: 256 });
const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-hybrid-'));
const config = loadConfig(
  { RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'ollama', OLLAMA_BASE_URL: fake.url },
  { envFile: false },
);
const logger = createLogger({ level: 'silent' });
const index = await openChunkIndex(config, logger);
const embedder = createEmbedder(config);
try {
  const ingestion = createIngestion({ config, logger, index, embedder });
  for (const name of documents) {
    const bytes = new Uint8Array(readFileSync(path.join(corpus, name)));
    await ingestion.ingest({ name, bytes, scope: sharedScope, uploader: 'bench' }, () => {});
  }
  const row = (label: string, metrics: Omit<EvalMetrics, 'questions'>) =>
    `${label.padEnd(30)} ${metrics.hitAtK.toFixed(3)}  ${metrics.parentHitAtK.toFixed(3)}     ${metrics.parentHitAt1.toFixed(3)}     ${metrics.mrr.toFixed(3)}`;
  console.log(
    `${questions.length} questions, ${documents.length} PDFs, k = 5, fake embedder (hashed bag of words, 256 dims)`,
  );
  console.log('retrieval                      ev@5   parent@5  parent@1  MRR');
  for (const [label, retriever] of [
    ['BM25 only', createRetriever({ index, embedder: undefined })],
    ['hybrid (fake dense)', createRetriever({ index, embedder })],
  ] as const) {
    const report = await evaluateRetrieval(retriever, questions, {
      scopes: [sharedScope],
      k: 5,
      countTokens,
    });
    console.log(row(`${label}, all`, report));
    if (report.splits) console.log(row(`${label}, held out`, report.splits.heldOut));
  }
  console.log(`embed requests to the fake: ${fake.embedRequests().length}`);
} finally {
  await index.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
}

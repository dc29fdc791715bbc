/**
 * Part (b) of `npm run bench:search`: ingest the real corpus (../shared/corpus, or BENCH_CORPUS) BM25-only
 * into a temporary data dir with the ingestion service, then run the retrieval eval over
 * bench/questions.jsonl at k = 5 (BENCH_K). BENCH_VERBOSE=1 also lists the questions whose children
 * miss evidence (`miss` when their parents miss it too), with the sections of their top k.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { describeError } from '../src/errors.ts';
import { createIngestion } from '../src/ingest/ingestion-service.ts';
import { createLogger } from '../src/logger.ts';
import { createRetriever } from '../src/retrieval/create-retriever.ts';
import { evaluateRetrieval, parseQuestions } from '../src/retrieval/evaluation.ts';
import { openChunkIndex } from '../src/retrieval/open-chunk-index.ts';
import { corpusDirectory, missingCorpusHint } from './corpus-path.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function runCorpusBench(): Promise<void> {
  const corpus = corpusDirectory();
  const k = Number(process.env.BENCH_K ?? 5);
  if (!existsSync(corpus)) {
    // Part (a) has run; the bench still fails, with the one-line hint.
    console.error(`(b) ${missingCorpusHint(corpus)}`);
    process.exitCode = 1;
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-corpus-'));
  const config = loadConfig({ RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' }, { envFile: false });
  const logger = createLogger({ level: 'silent' });
  const index = await openChunkIndex(config, logger);
  try {
    const ingestion = createIngestion({ config, logger, index, embedder: undefined });
    const files = readdirSync(corpus)
      .filter((name) => /\.(pdf|md|txt)$/i.test(name))
      .sort();
    console.log(`(b) corpus: ingesting ${files.length} files BM25-only from ${corpus}`);
    const started = performance.now();
    for (const name of files) {
      try {
        const bytes = new Uint8Array(await readFile(path.join(corpus, name)));
        const report = await ingestion.ingest({ name, bytes, scope: 'shared', uploader: 'bench' });
        console.log(
          `  ${name}: ${report.document.pages} pages, ${report.document.children} children, ${report.seconds.toFixed(1)} s`,
        );
      } catch (error) {
        console.log(`  ${name}: failed — ${describeError(error)}`);
      }
    }
    console.log(`  ingest total: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const questions = parseQuestions(await readFile(path.join(here, 'questions.jsonl'), 'utf8'));
    const retriever = createRetriever({ index, embedder: undefined });
    await retriever.search('warm up', { scopes: ['shared'], k });
    const report = await evaluateRetrieval(retriever, questions, { scopes: ['shared'], k });
    console.log(`  eval over ${questions.length} questions (bench/questions.jsonl), BM25 only, k = ${k}:`);
    console.log(
      `  hitAtK ${report.hitAtK.toFixed(3)}  parentHitAtK ${report.parentHitAtK.toFixed(3)}  ` +
        `docAtK ${report.docAtK.toFixed(3)}  mrr ${report.mrr.toFixed(3)}  ` +
        `p50 ${report.p50Ms.toFixed(1)} ms  p95 ${report.p95Ms.toFixed(1)} ms`,
    );
    if (process.env.BENCH_VERBOSE === '1') {
      for (const item of report.items.filter((entry) => entry.hit === false)) {
        console.log(`  ${item.parentHit ? 'child miss' : 'miss'}: ${item.question}`);
        for (const hit of item.top) {
          console.log(`    ${hit.file} p${hit.pages[0]}–${hit.pages[1]}  ${hit.section.join(' › ')}`);
        }
      }
    }
  } finally {
    await index.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

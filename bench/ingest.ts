/**
 * npm run bench:ingest [file.pdf] — ingests one PDF (default: the 2,415-page R reference manual) with
 * RAGENT_EMBEDDINGS=none into a temporary data dir, and prints pages, seconds, pages/s, peak RSS
 * (the whole process: worker threads included), CPU time, parents, children and the time per stage;
 * then, in the same run, the time of `pdftotext -layout` on the same file and the ratio of the two
 * ("pdftotext not installed" when it is not: apt-get install poppler-utils).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { sharedScope } from '../src/core/types.ts';
import { createIngestion } from '../src/ingest/ingestion-service.ts';
import { createLogger } from '../src/logger.ts';
import { openChunkIndex } from '../src/retrieval/open-chunk-index.ts';
import { corpusFile } from './corpus-path.ts';

const file = path.resolve(process.argv[2] ?? corpusFile('refman.pdf'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-ingest-'));
const config = loadConfig(
  {
    RAGENT_DATA_DIR: dataDir,
    RAGENT_EMBEDDINGS: 'none',
    RAGENT_INGEST_WORKERS: process.env.RAGENT_INGEST_WORKERS,
  },
  { envFile: false },
);
const logger = createLogger({ level: 'silent' });
const index = await openChunkIndex(config, logger);
const ingestion = createIngestion({ config, logger, index, embedder: undefined });

try {
  const bytes = new Uint8Array(readFileSync(file));
  const stageStarts = new Map<string, number>();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const report = await ingestion.ingest(
    { name: path.basename(file), bytes, scope: sharedScope, uploader: 'bench' },
    (progress) => {
      if (!stageStarts.has(progress.stage)) stageStarts.set(progress.stage, performance.now());
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const stages = [...stageStarts.entries()].map(([stage, at], position, all) => {
    const next = all[position + 1]?.[1] ?? performance.now();
    return `${stage} ${((next - at) / 1000).toFixed(2)}s`;
  });
  const { document } = report;
  console.log(`file        ${file}`);
  console.log(`workers     ${config.ingest.workers}`);
  console.log(`pages       ${document.pages}`);
  console.log(`seconds     ${seconds.toFixed(2)}`);
  console.log(`pages/s     ${(document.pages / seconds).toFixed(1)}`);
  console.log(`peak RSS    ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  console.log(`CPU         ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (all threads)`);
  console.log(`load avg    ${loadavg()[0]?.toFixed(2)} (other work on this machine slows the figures down)`);
  console.log(`parents     ${document.parents}`);
  console.log(`children    ${document.children}`);
  console.log(`stages      ${stages.join(', ')}`);
  const installed = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).error === undefined;
  if (installed) {
    const pdftotextStarted = performance.now();
    spawnSync('pdftotext', ['-layout', file, path.join(dataDir, 'pdftotext.txt')], { stdio: 'ignore' });
    const pdftotextSeconds = (performance.now() - pdftotextStarted) / 1000;
    console.log(`pdftotext   ${pdftotextSeconds.toFixed(2)} s (-layout, same file, same run)`);
    console.log(`ratio       ${(seconds / pdftotextSeconds).toFixed(2)} (ragent ingest / pdftotext -layout)`);
  } else console.log('pdftotext   not installed');
} finally {
  await index.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * npm run bench:bomb — ingests compressed-stream bombs (PDFs of a few hundred kB whose page content
 * inflates to 32 and 256 MB) through the real ingestion service (BM25 only, temporary data dir, the
 * default limits unless set in the environment) and measures what the rest of the bot would feel:
 * the event-loop delay of the main thread (monitorEventLoopDelay, 10 ms resolution: max and p99), the
 * outcome (ingested, or the refusal's code), the seconds and the peak RSS of the process.
 * BENCH_BOMB_MB=32,256 picks the inflated sizes; BENCH_BOMB_KIND=text|drawing|one-run the content;
 * BENCH_BOMB_PAGES=n spreads it over n pages (one stream each, so each stays under the stream cap).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/config.ts';
import { sharedScope } from '../src/core/types.ts';
import { isRagentError } from '../src/errors.ts';
import { createIngestion } from '../src/ingest/ingestion-service.ts';
import { createLogger } from '../src/logger.ts';
import { openChunkIndex } from '../src/retrieval/open-chunk-index.ts';
import { makeBombPdf } from '../test/support/make-bomb-pdf.ts';

const sizes = (process.env.BENCH_BOMB_MB ?? '32,256').split(',').map(Number);
const kinds = ['text', 'drawing', 'one-run'] as const;
const kind = kinds.find((name) => name === process.env.BENCH_BOMB_KIND) ?? 'text';
const pages = Number(process.env.BENCH_BOMB_PAGES ?? 1);
const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-bomb-'));
const { RAGENT_DATA_DIR: _ignored, ...environment } = process.env;
const config = loadConfig(
  { ...environment, RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' },
  { envFile: false },
);
const logger = createLogger({ level: 'silent' });
const index = await openChunkIndex(config, logger);
const ingestion = createIngestion({ config, logger, index, embedder: undefined });
const milliseconds = (nanoseconds: number) => `${(nanoseconds / 1e6).toFixed(0)} ms`;

console.log(
  `limits      text ${config.ingest.maxTextChars / 1024 / 1024} MB, pages ${config.ingest.maxPages}, ` +
    `chunks ${config.ingest.maxChunks}, reading ${config.ingest.timeoutMs / 1000} s, ` +
    `reader heap ${config.ingest.workerMemoryMb} MB`,
);
try {
  for (const megabytes of sizes) {
    const bytes = await makeBombPdf({ inflatedMegabytes: megabytes, kind, pages });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    let outcome: string;
    try {
      const report = await ingestion.ingest({
        name: `bomb-${megabytes}mb.pdf`,
        bytes,
        scope: sharedScope,
        uploader: 'bench',
      });
      outcome = `${report.status} (${report.document.children} children)`;
    } catch (error) {
      if (!isRagentError(error)) throw error;
      outcome = `refused ${error.code}: ${error.message}`;
    }
    const seconds = (performance.now() - started) / 1000;
    delay.disable();
    console.log(
      `${kind} bomb ${(bytes.byteLength / 1024).toFixed(0)} kB → ${megabytes} MB on ${pages} page(s): ${outcome}\n` +
        `  ${seconds.toFixed(1)} s, event-loop delay max ${milliseconds(delay.max)} / ` +
        `p99 ${milliseconds(delay.percentile(99))}, ` +
        `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
    );
  }
  console.log(`load avg    ${loadavg()[0]?.toFixed(2)} (other work on this machine slows the figures down)`);
} finally {
  await index.close();
  rmSync(dataDir, { recursive: true, force: true });
}

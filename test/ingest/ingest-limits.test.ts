/**
 * Any file within RAGENT_MAX_FILE_MB is ingested or refused with the limit it crossed: bombs (small
 * PDFs whose content inflates to MB of text) are made at test time and refused by their own codes,
 * the reader never runs in the calling thread, and an abort stops an ingest with nothing written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { sharedScope } from '../../src/core/types.ts';
import { type ErrorCode, isRagentError, RagentError } from '../../src/errors.ts';
import { defaultIngestLimits } from '../../src/ingest/ingest-limits.ts';
import { createIngestion } from '../../src/ingest/ingestion-service.ts';
import { extractPages } from '../../src/ingest/pdf/extract-pages.ts';
import { createLogger } from '../../src/logger.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { makeBombPdf } from '../support/make-bomb-pdf.ts';
import { makePdf } from '../support/make-pdf.ts';

const logger = createLogger({ level: 'silent' });
const directories: string[] = [];

async function setUp(environment: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-limits-test-'));
  directories.push(dataDir);
  const config = loadConfig(
    { RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none', ...environment },
    { envFile: false },
  );
  const index = await openChunkIndex(config, logger);
  return { index, ingestion: createIngestion({ config, logger, index, embedder: undefined }) };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: ErrorCode | 'none'; message: string }> {
  try {
    await promise;
    return { code: 'none', message: '' };
  } catch (error) {
    if (!isRagentError(error)) throw error;
    return { code: error.code, message: error.message };
  }
}

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

// Bombs take long to read on a loaded machine; no assertion is about time.
describe('ingest limits', { timeout: 180_000 }, () => {
  it('refuses a text bomb (a 100 kB PDF inflating to 16 MB of pages) by RAGENT_MAX_TEXT_MB, and adds nothing', async () => {
    const { index, ingestion } = await setUp({ RAGENT_MAX_TEXT_MB: '1' });
    try {
      // 32 pages of 0.5 MB content each: no stream over the limit, their text together is.
      const bytes = await makeBombPdf({ inflatedMegabytes: 16, kind: 'text', pages: 32 });
      expect(bytes.byteLength).toBeLessThan(200 * 1024);
      const result = await refusal(
        ingestion.ingest({ name: 'bomb.pdf', bytes, scope: sharedScope, uploader: 'test' }),
      );
      expect(result.code).toBe('INGEST_TEXT_TOO_LARGE');
      expect(result.message).toContain('bomb.pdf');
      expect(result.message).toContain('RAGENT_MAX_TEXT_MB');
      expect(await index.listDocuments([sharedScope])).toEqual([]);
      // The bot goes on: an ordinary file right after is ingested.
      const report = await ingestion.ingest({
        name: 'fine.pdf',
        bytes: await makePdf(['An ordinary page about backups.']),
        scope: sharedScope,
        uploader: 'test',
      });
      expect(report.status).toBe('ingested');
    } finally {
      await index.close();
    }
  });

  it('refuses a PDF with more pages than RAGENT_MAX_PAGES', async () => {
    const { index, ingestion } = await setUp({ RAGENT_MAX_PAGES: '3' });
    try {
      const bytes = await makePdf(['one', 'two', 'three', 'four', 'five']);
      const result = await refusal(
        ingestion.ingest({ name: 'five.pdf', bytes, scope: sharedScope, uploader: 'test' }),
      );
      expect(result).toEqual({
        code: 'INGEST_TOO_MANY_PAGES',
        message: 'five.pdf has 5 pages, over the limit of 3. Split it, or raise RAGENT_MAX_PAGES.',
      });
    } finally {
      await index.close();
    }
  });

  it('refuses a document that makes more chunks than RAGENT_MAX_CHUNKS', async () => {
    const { index, ingestion } = await setUp({ RAGENT_MAX_CHUNKS: '2' });
    try {
      const text = Array.from({ length: 40 }, (_, n) => `Paragraph ${n} says something about backups.`);
      const result = await refusal(
        ingestion.ingest({
          name: 'notes.md',
          bytes: new TextEncoder().encode(text.join('\n\n')),
          scope: sharedScope,
          uploader: 'test',
        }),
      );
      expect(result.code).toBe('INGEST_TOO_MANY_CHUNKS');
      expect(result.message).toContain('RAGENT_MAX_CHUNKS');
      expect(await index.listDocuments([sharedScope])).toEqual([]);
    } finally {
      await index.close();
    }
  });

  it('refuses a text file over RAGENT_MAX_TEXT_MB by its size', async () => {
    const { index, ingestion } = await setUp({ RAGENT_MAX_TEXT_MB: '1' });
    try {
      const bytes = new TextEncoder().encode('word '.repeat(300_000));
      const result = await refusal(
        ingestion.ingest({ name: 'big.txt', bytes, scope: sharedScope, uploader: 'test' }),
      );
      expect(result.code).toBe('INGEST_TEXT_TOO_LARGE');
    } finally {
      await index.close();
    }
  });

  it('stops reading after RAGENT_INGEST_TIMEOUT_S, with its own code', async () => {
    const { index, ingestion } = await setUp({ RAGENT_INGEST_TIMEOUT_S: '1' });
    try {
      // 8 streams of 8 MB: none over the stream cap, the text under RAGENT_MAX_TEXT_MB, the reading long.
      const bytes = await makeBombPdf({ inflatedMegabytes: 64, kind: 'text', pages: 8 });
      const result = await refusal(
        ingestion.ingest({ name: 'slow.pdf', bytes, scope: sharedScope, uploader: 'test' }),
      );
      expect(result.code).toBe('INGEST_TIMEOUT');
      expect(result.message).toContain('RAGENT_INGEST_TIMEOUT_S');
    } finally {
      await index.close();
    }
  });

  it('refuses a PDF whose one text run inflates to 32 MB before pdf.js parses it (RAGENT_MAX_TEXT_MB)', async () => {
    // pdf.js would build that string in one array, which can abort the whole process even from a
    // heap-capped worker thread (nodejs/node#47224).
    const bytes = await makeBombPdf({ inflatedMegabytes: 32, kind: 'one-run' });
    expect(bytes.byteLength).toBeLessThan(1024 * 1024);
    const limits = { ...defaultIngestLimits, maxTextChars: 16 * 1024 * 1024 };
    const result = await refusal(extractPages(bytes, { name: 'one-run.pdf', workers: 2, limits }));
    expect(result.code).toBe('INGEST_CONTENT_TOO_LARGE');
    expect(result.message).toContain('RAGENT_MAX_TEXT_MB');
  });

  it('reads a small PDF in a heap-capped worker: out of memory ends that worker, not the process', async () => {
    const bytes = await makeBombPdf({ inflatedMegabytes: 4, kind: 'one-run' });
    expect(bytes.byteLength).toBeLessThan(1024 * 1024);
    const limits = { ...defaultIngestLimits, workerMemoryMb: 64 };
    const result = await refusal(
      (async () => {
        const { pages } = await extractPages(bytes, { name: 'hungry.pdf', workers: 2, limits });
        for await (const _page of pages);
      })(),
    );
    expect(result.code).toBe('INGEST_OUT_OF_MEMORY');
    expect(result.message).toContain('RAGENT_INGEST_MEMORY_MB');
  });

  it('an aborted ingest stops with INGEST_CANCELLED (or the abort reason) and writes nothing', async () => {
    const { index, ingestion } = await setUp({});
    try {
      const bytes = await makeBombPdf({ inflatedMegabytes: 64, kind: 'text', pages: 8 });
      const controller = new AbortController();
      const result = await refusal(
        ingestion.ingest(
          { name: 'long.pdf', bytes, scope: sharedScope, uploader: 'test', signal: controller.signal },
          (progress) => {
            if (progress.stage === 'reading') setImmediate(() => controller.abort());
          },
        ),
      );
      expect(result.code).toBe('INGEST_CANCELLED');
      const shutdown = new AbortController();
      shutdown.abort(new RagentError('SHUTTING_DOWN', 'ragent is stopping.'));
      const stopped = await refusal(
        ingestion.ingest({
          name: 'long.pdf',
          bytes,
          scope: sharedScope,
          uploader: 'test',
          signal: shutdown.signal,
        }),
      );
      expect(stopped.code).toBe('SHUTTING_DOWN');
      expect(await index.listDocuments([sharedScope])).toEqual([]);
    } finally {
      await index.close();
    }
  });
});

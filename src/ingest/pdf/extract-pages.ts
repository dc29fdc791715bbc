/**
 * Streams the lines of every page of a PDF, in page order. Large files are read by a pool of worker
 * threads (each opens its own copy of the document and takes batches of pages as it frees up);
 * small ones in this thread, where starting workers would cost more than it saves.
 */
import { Worker } from 'node:worker_threads';
import { RagentError } from '../../errors.ts';
import type { FromWorker, ToWorker, WorkerInput } from './extract-protocol.ts';
import { openPdf } from './open-pdf.ts';
import type { PageText } from './page-lines.ts';
import { readPage } from './read-page.ts';

export interface ExtractOptions {
  /** Display name for error messages. */
  name: string;
  /** Worker threads for large documents (config.ingest.workers); 1 reads in this thread. */
  workers: number;
  /**
   * Files smaller than this are read in this thread: starting a worker (loading pdf.js, opening the
   * document) costs ~0.3 s, more than it saves on a short document. Default 1 MiB.
   */
  minBytesForWorkers?: number;
  signal?: AbortSignal;
}

export interface PdfPages {
  pageCount: number;
  /** Every page once, in order (a page pdf.js cannot read comes back with no lines). */
  pages: AsyncIterable<PageText>;
}

/** Opens the document (so a bad PDF fails here, before anything else) and returns its page stream. */
export async function extractPages(bytes: Uint8Array, options: ExtractOptions): Promise<PdfPages> {
  if (options.workers > 1 && bytes.byteLength >= (options.minBytesForWorkers ?? 1024 * 1024)) {
    return startWorkers(bytes, options);
  }
  const document = await openPdf(bytes, options.name);
  const pageCount = document.numPages;
  return {
    pageCount,
    pages: (async function* () {
      try {
        for (let page = 1; page <= pageCount; page++) {
          options.signal?.throwIfAborted();
          yield await readPage(document, page).catch(() => ({ page, lines: [], fonts: {} }));
        }
      } finally {
        await document.destroy().catch(() => {});
      }
    })(),
  };
}

/**
 * Starts the workers; each opens the document itself, and the first to have it open tells the page
 * count (or why the PDF cannot be opened). Pages are handed out in batches as workers free up.
 */
async function startWorkers(bytes: Uint8Array, options: ExtractOptions): Promise<PdfPages> {
  const pool = new WorkerPool(bytes, options);
  try {
    const pageCount = await pool.pageCount;
    return { pageCount, pages: pool.pages(pageCount) };
  } catch (error) {
    await pool.close();
    throw error;
  }
}

class WorkerPool {
  readonly pageCount: Promise<number>;
  private readonly workers: Worker[] = [];
  private readonly ready = new Map<number, PageText>();
  private nextPage = 1;
  private total = 0;
  private batchSize = 16;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(
    bytes: Uint8Array,
    private readonly options: ExtractOptions,
  ) {
    const shared = new SharedArrayBuffer(bytes.byteLength);
    new Uint8Array(shared).set(bytes);
    let resolveCount!: (count: number) => void;
    let rejectCount!: (error: Error) => void;
    this.pageCount = new Promise<number>((resolve, reject) => {
      resolveCount = resolve;
      rejectCount = reject;
    });
    for (let index = 0; index < options.workers; index++) {
      const input: WorkerInput = { bytes: shared, name: options.name };
      const worker = new Worker(new URL('./extract-worker.mjs', import.meta.url), { workerData: input });
      this.workers.push(worker);
      worker.on('message', (message: FromWorker) => {
        switch (message.type) {
          case 'ready':
            if (this.total === 0) {
              this.total = message.pageCount;
              this.batchSize = Math.max(
                8,
                Math.min(32, Math.ceil(message.pageCount / (options.workers * 8))),
              );
              resolveCount(message.pageCount);
            }
            this.give(worker);
            break;
          case 'batch-done':
            this.give(worker);
            break;
          case 'page':
            this.ready.set(message.page.page, message.page);
            this.notify();
            break;
          case 'page-failed':
            this.ready.set(message.page, { page: message.page, lines: [], fonts: {} });
            this.notify();
            break;
          case 'failed':
            this.fail(new RagentError(message.code, message.message), rejectCount);
            break;
        }
      });
      worker.on('error', (error) => {
        const failure = new RagentError(
          'INTERNAL',
          'A PDF extraction worker failed. The details are in the log.',
          {
            cause: error,
          },
        );
        this.fail(failure, rejectCount);
      });
      worker.on('exit', (code) => {
        if (code !== 0 && (this.total === 0 || this.nextPage <= this.total)) {
          this.fail(
            new RagentError('INTERNAL', `A PDF extraction worker stopped early (exit code ${code}).`),
            rejectCount,
          );
        }
      });
    }
  }

  async *pages(pageCount: number): AsyncGenerator<PageText> {
    const onAbort = () => this.notify();
    this.options.signal?.addEventListener('abort', onAbort);
    try {
      for (let page = 1; page <= pageCount; page++) {
        for (;;) {
          this.options.signal?.throwIfAborted();
          if (this.failure) throw this.failure;
          const text = this.ready.get(page);
          if (text) {
            this.ready.delete(page);
            yield text;
            break;
          }
          await new Promise<void>((resolve) => {
            this.wake = resolve;
          });
        }
      }
    } finally {
      this.options.signal?.removeEventListener('abort', onAbort);
      await this.close();
    }
  }

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.threadId < 0) return resolve();
            const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2_000);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            worker.postMessage({ type: 'close' } satisfies ToWorker);
          }),
      ),
    );
  }

  private give(worker: Worker): void {
    if (this.nextPage > this.total) return;
    const from = this.nextPage;
    const to = Math.min(this.total, from + this.batchSize - 1);
    this.nextPage = to + 1;
    worker.postMessage({ type: 'pages', from, to } satisfies ToWorker);
  }

  private fail(error: Error, rejectCount: (error: Error) => void): void {
    this.failure ??= error;
    rejectCount(this.failure);
    this.notify();
  }

  private notify(): void {
    const resolve = this.wake;
    this.wake = undefined;
    resolve?.();
  }
}

/**
 * Streams the lines of every page of a PDF, in page order. Large documents are read by a pool of
 * worker threads (each opens its own copy of the document and takes batches of pages as it frees
 * up); small ones in this thread, where starting workers would cost more than it saves.
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
  /** Documents with fewer pages are read in this thread (starting workers costs ~0.3 s). Default 128. */
  minPagesForWorkers?: number;
  signal?: AbortSignal;
}

export interface PdfPages {
  pageCount: number;
  /** Every page once, in order (a page pdf.js cannot read comes back with no lines). */
  pages: AsyncIterable<PageText>;
}

/** Opens the document (so a bad PDF fails here, before anything else) and returns its page stream. */
export async function extractPages(bytes: Uint8Array, options: ExtractOptions): Promise<PdfPages> {
  const document = await openPdf(bytes, options.name);
  const pageCount = document.numPages;
  const useWorkers = options.workers > 1 && pageCount >= (options.minPagesForWorkers ?? 128);
  if (!useWorkers) {
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
  await document.destroy().catch(() => {});
  return { pageCount, pages: pagesFromWorkers(bytes, pageCount, options) };
}

async function* pagesFromWorkers(
  bytes: Uint8Array,
  pageCount: number,
  options: ExtractOptions,
): AsyncGenerator<PageText> {
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  const workerCount = Math.min(options.workers, Math.ceil(pageCount / 16));
  const batchSize = Math.max(8, Math.min(64, Math.ceil(pageCount / (workerCount * 8))));
  const ready = new Map<number, PageText>();
  let nextBatch = 1;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  const workers: Worker[] = [];
  const give = (worker: Worker) => {
    if (nextBatch > pageCount) return;
    const from = nextBatch;
    const to = Math.min(pageCount, from + batchSize - 1);
    nextBatch = to + 1;
    worker.postMessage({ type: 'pages', from, to } satisfies ToWorker);
  };

  for (let index = 0; index < workerCount; index++) {
    const input: WorkerInput = { bytes: shared, name: options.name };
    const worker = new Worker(new URL('./extract-worker.mjs', import.meta.url), { workerData: input });
    workers.push(worker);
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
        case 'batch-done':
          give(worker);
          break;
        case 'page':
          ready.set(message.page.page, message.page);
          notify();
          break;
        case 'page-failed':
          ready.set(message.page, { page: message.page, lines: [], fonts: {} });
          notify();
          break;
        case 'failed':
          failure ??= new RagentError(message.code, message.message);
          notify();
          break;
      }
    });
    worker.on('error', (error) => {
      failure ??= new RagentError('INTERNAL', 'A PDF extraction worker failed. The details are in the log.', {
        cause: error,
      });
      notify();
    });
    worker.on('exit', (code) => {
      if (code !== 0 && nextBatch <= pageCount) {
        failure ??= new RagentError('INTERNAL', `A PDF extraction worker stopped early (exit code ${code}).`);
        notify();
      }
    });
  }
  const onAbort = () => notify();
  options.signal?.addEventListener('abort', onAbort);

  try {
    for (let page = 1; page <= pageCount; page++) {
      for (;;) {
        options.signal?.throwIfAborted();
        if (failure) throw failure;
        const text = ready.get(page);
        if (text) {
          ready.delete(page);
          yield text;
          break;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    for (const worker of workers) worker.postMessage({ type: 'close' } satisfies ToWorker);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 2_000);
            worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
  }
}

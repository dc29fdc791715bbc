/**
 * Streams the lines of every page of a PDF, in page order, read by worker threads — never in the
 * calling thread, however small the file: a PDF of a few kB can inflate to hundreds of MB of page
 * content. Each worker opens its own copy of the document and takes batches of pages as it frees up;
 * a file under `minBytesForWorkers` gets one worker (starting more costs more than it saves), until
 * it turns out to be a scan: OCR takes seconds a page, so the other workers then join (a scan of a
 * few pages is often under 1 MiB) and the pages are shared among them.
 *
 * The reading is bounded: each worker's heap is capped (a file needing more kills that worker, not
 * the process), and the page count, the extracted text and the time are checked against the limits.
 * Crossing one, an abort, or any failure terminates every worker at once and fails the page stream
 * with its own error code.
 */
import { Worker } from 'node:worker_threads';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { workerEntry } from '../../worker-entry.ts';
import {
  contentTooLarge,
  defaultIngestLimits,
  type IngestLimits,
  ingestCancelled,
  readerOutOfMemory,
  readingTimedOut,
  tooManyPages,
  tooMuchText,
} from '../ingest-limits.ts';
import type { OcrSettings } from '../ocr/ocr-settings.ts';
import type { FromWorker, ToWorker, WorkerInput } from './extract-protocol.ts';
import type { PageText } from './page-lines.ts';
import type { OutlineEntry } from './read-outline.ts';

export interface ExtractOptions {
  /** Display name for error messages. */
  name: string;
  /** Worker threads for large documents (config.ingest.workers). */
  workers: number;
  /**
   * Files smaller than this get one worker: starting a worker (loading pdf.js, opening the document)
   * costs ~0.3 s, more than a second one saves on a short document. Default 1 MiB.
   */
  minBytesForWorkers?: number;
  /** Default: defaultIngestLimits. */
  limits?: IngestLimits;
  signal?: AbortSignal;
  /** Benchmarks: read font weights as for a document without an outline (the outline is still read). */
  ignoreOutline?: boolean;
  /** When enabled, pages without a text layer are recognised by OCR in the reader threads. */
  ocr?: OcrSettings;
}

/** A page's lines, and for a page without any, the text OCR recognised on it (when OCR is on). */
export interface ExtractedPage extends PageText {
  recognised?: string;
}

export interface PdfPages {
  pageCount: number;
  /** Every page once, in order (a page pdf.js cannot read comes back with no lines). */
  pages: AsyncIterable<ExtractedPage>;
  /** The PDF's outline, read by a worker; empty when it has none (or the reading stopped first). */
  outline: Promise<OutlineEntry[]>;
  /** How many reader threads were started so far (benchmarks and tests). */
  readerThreads(): number;
}

/** Opens the document (so a bad PDF fails here, before anything else) and returns its page stream. */
export async function extractPages(bytes: Uint8Array, options: ExtractOptions): Promise<PdfPages> {
  const workers =
    bytes.byteLength >= (options.minBytesForWorkers ?? 1024 * 1024) ? Math.max(1, options.workers) : 1;
  const pool = new WorkerPool(bytes, workers, options);
  try {
    const pageCount = await pool.pageCount;
    return {
      pageCount,
      pages: pool.pages(pageCount),
      outline: pool.outline,
      readerThreads: () => pool.threadCount,
    };
  } catch (error) {
    await pool.close();
    throw error;
  }
}

class WorkerPool {
  readonly pageCount: Promise<number>;
  readonly outline: Promise<OutlineEntry[]>;
  private resolveOutline: (entries: OutlineEntry[]) => void = () => {};
  private readonly workers: Worker[] = [];
  private readonly readyWorkers: Worker[] = [];
  private readonly ready = new Map<number, ExtractedPage>();
  private readonly limits: IngestLimits;
  private nextPage = 1;
  private total = 0;
  private textChars = 0;
  private batchSize = 16;
  /**
   * Whether the document has scanned pages (OCR'd, seconds each): then pages are handed out one at a
   * time, so that the threads share them evenly. Unknown (undefined) until the first page comes back
   * with OCR on; a first hand-out is one page per thread.
   */
  private scanned: boolean | undefined;
  /** Whether pages are read with font weights: known once the first worker has read the outline. */
  private fontWeights: boolean | undefined;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private resolveCount: (count: number) => void = () => {};
  private rejectCount: (error: Error) => void = () => {};
  private readonly timer: NodeJS.Timeout;
  /** The file's bytes, shared read-only with every worker (a joined one too). */
  private readonly shared: SharedArrayBuffer;
  /** Whether the pages are being handed out (every first worker was ready). */
  private reading = false;
  private readonly onAbort = () => {
    if (this.options.signal) this.fail(ingestCancelled(this.options.name, this.options.signal));
  };

  constructor(
    bytes: Uint8Array,
    workerCount: number,
    private readonly options: ExtractOptions,
  ) {
    const limits = options.limits ?? defaultIngestLimits;
    this.limits = limits;
    this.scanned = options.ocr?.enabled ? undefined : false;
    this.pageCount = new Promise<number>((resolve, reject) => {
      this.resolveCount = resolve;
      this.rejectCount = reject;
    });
    // Nobody may be awaiting pageCount when a failure comes later; it is read through pages().
    this.pageCount.catch(() => {});
    this.outline = new Promise<OutlineEntry[]>((resolve) => {
      this.resolveOutline = resolve;
    });
    this.timer = setTimeout(() => this.fail(readingTimedOut(options.name, limits)), limits.timeoutMs);
    this.timer.unref();
    this.shared = new SharedArrayBuffer(bytes.byteLength);
    new Uint8Array(this.shared).set(bytes);
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (options.signal?.aborted) {
      this.onAbort();
      return;
    }
    for (let index = 0; index < workerCount; index++) {
      this.startWorker(
        {
          bytes: this.shared,
          name: options.name,
          maxPageChars: limits.maxTextChars,
          maxStreamBytes: limits.maxTextChars,
          streamShare: { index, of: workerCount },
          ocr: options.ocr?.enabled ? options.ocr : undefined,
        },
        workerCount,
      );
    }
  }

  private startWorker(input: WorkerInput, workerCount: number): void {
    const { name } = this.options;
    const worker = new Worker(workerEntry(import.meta.url, 'extract-worker'), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.workerMemoryMb },
    });
    this.workers.push(worker);
    worker.on('message', (message: FromWorker) => {
      if (this.failure) return;
      switch (message.type) {
        case 'ready':
          // Each worker checked its share of the streams: pages are read once every share passed.
          this.readyWorkers.push(worker);
          if (this.reading) {
            // A worker that joined for a scan: it takes the next page.
            this.give(worker);
            return;
          }
          if (this.readyWorkers.length < workerCount) return;
          if (message.pageCount > this.limits.maxPages) {
            this.fail(tooManyPages(name, message.pageCount, this.limits));
            return;
          }
          this.total = message.pageCount;
          this.batchSize = Math.max(8, Math.min(32, Math.ceil(message.pageCount / (workerCount * 8))));
          this.resolveCount(message.pageCount);
          this.reading = true;
          this.startReading();
          break;
        case 'outline':
          // Headings come from the outline when there is one; else from fonts, bold ones included.
          this.fontWeights = message.entries.length === 0 || (this.options.ignoreOutline ?? false);
          this.resolveOutline(message.entries);
          this.startReading();
          break;
        case 'stream-too-large':
          this.fail(contentTooLarge(name, this.limits));
          break;
        case 'batch-done':
          this.give(worker);
          break;
        case 'scanning':
          this.scanned = true;
          this.addScanWorkers();
          break;
        case 'page':
          if (message.recognised !== undefined) this.scanned = true;
          else this.scanned ??= false;
          this.textChars += message.chars;
          if (this.textChars > this.limits.maxTextChars) {
            this.fail(tooMuchText(name, this.limits));
            return;
          }
          this.ready.set(
            message.page.page,
            message.recognised === undefined
              ? message.page
              : { ...message.page, recognised: message.recognised },
          );
          this.notify();
          break;
        case 'page-failed':
          this.ready.set(message.page, { page: message.page, lines: [], fonts: {} });
          this.notify();
          break;
        case 'page-too-large':
          this.fail(tooMuchText(name, this.limits));
          break;
        case 'failed':
          this.fail(new RagentError(message.code, message.message));
          break;
      }
    });
    worker.on('error', (error: Error & { code?: string }) => {
      this.fail(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? readerOutOfMemory(name, this.limits, error)
          : new RagentError('INTERNAL', errorMessages.INTERNAL.pdfWorkerFailed(), {
              cause: error,
            }),
      );
    });
    worker.on('exit', (code) => {
      if (code !== 0 && (this.total === 0 || this.nextPage <= this.total)) {
        this.fail(new RagentError('INTERNAL', errorMessages.INTERNAL.pdfWorkerExited({ code })));
      }
    });
  }

  get threadCount(): number {
    return this.workers.length;
  }

  /**
   * A small file starts with one worker: once a page turns out to be a scan (seconds of OCR each), the
   * other workers allowed (RAGENT_INGEST_WORKERS) join while pages are left for them, each with its
   * own OCR engine, so the pages of a scan are recognised side by side.
   */
  private addScanWorkers(): void {
    if (this.failure || !this.reading) return;
    const allowed = Math.max(1, this.options.workers);
    const waiting = this.total - this.nextPage + 1;
    const running = this.workers.length;
    for (let index = running; index < allowed && index - running < waiting; index++) {
      this.startWorker(
        {
          bytes: this.shared,
          name: this.options.name,
          maxPageChars: this.limits.maxTextChars,
          maxStreamBytes: this.limits.maxTextChars,
          streamShare: { index, of: allowed },
          ocr: this.options.ocr,
          joined: true,
        },
        allowed,
      );
    }
  }

  async *pages(pageCount: number): AsyncGenerator<ExtractedPage> {
    try {
      for (let page = 1; page <= pageCount; page++) {
        for (;;) {
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
      await this.close();
    }
  }

  /** Lets the workers finish and exit (terminating any that do not within 2 s). */
  async close(): Promise<void> {
    this.stopWatching();
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
    this.resolveOutline([]);
  }

  /** Pages are handed out once every worker is ready and the outline is known. */
  private startReading(): void {
    if (this.total === 0 || this.fontWeights === undefined) return;
    for (const ready of this.readyWorkers) this.give(ready);
  }

  private give(worker: Worker): void {
    if (this.nextPage > this.total || this.fontWeights === undefined) return;
    const from = this.nextPage;
    const to = Math.min(this.total, from + (this.scanned === false ? this.batchSize : 1) - 1);
    this.nextPage = to + 1;
    worker.postMessage({ type: 'pages', from, to, fontWeights: this.fontWeights } satisfies ToWorker);
  }

  /** The first failure wins; every worker is terminated at once (one may be stuck in a page). */
  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    this.stopWatching();
    this.ready.clear();
    for (const worker of this.workers) void worker.terminate();
    this.rejectCount(error);
    this.resolveOutline([]);
    this.notify();
  }

  private stopWatching(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
  }

  private notify(): void {
    const resolve = this.wake;
    this.wake = undefined;
    resolve?.();
  }
}

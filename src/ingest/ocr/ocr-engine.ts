/**
 * One OCR engine: a tesseract.js worker (its own thread, running tesseract's WebAssembly build), started
 * on the first image and kept for the next ones of the same file. The thread that calls it only waits:
 * decoding the image and recognising its text both happen in the engine's thread.
 *
 * Offline by construction: the engine code is required from the tesseract.js-core package, the language
 * data is read from the @tesseract.js-data packages (see language-data.ts), images are passed as bytes
 * (never as a path or URL), and no cache is read or written.
 *
 * Bounded: each image, the engine's start included, gets `pageTimeoutMs`; past it the engine's thread is
 * terminated (tesseract cannot be interrupted inside a page) and OCR_PAGE_TIMEOUT thrown.
 */
import Tesseract from 'tesseract.js';
import { isRagentError } from '../../errors.ts';
import { type LanguageData, prepareLanguageData } from './language-data.ts';
import { type OcrSettings, ocrFailed, ocrPageTimedOut } from './ocr-settings.ts';

export class OcrEngine {
  private worker: Promise<Tesseract.Worker> | undefined;
  private languageData: LanguageData | undefined;
  /** Rejects when the engine's thread dies (a crash, not an answer). */
  private stopped: Promise<never> | undefined;

  constructor(
    private readonly settings: OcrSettings,
    /** The file's name, for messages. */
    private readonly name: string,
  ) {}

  /** The recognised text (tesseract's: lines, blank lines between paragraphs); `page` is for messages. */
  async recognise(image: Uint8Array, page?: number): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(ocrPageTimedOut(this.name, page, this.settings)),
        this.settings.pageTimeoutMs,
      );
    });
    try {
      return await Promise.race([this.run(image), timedOut]);
    } catch (error) {
      // A page that timed out or failed leaves the engine in an unknown state: start afresh next time.
      await this.close();
      if (isRagentError(error)) throw error;
      throw ocrFailed(this.name, page, error);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Ends the engine's thread and removes any temporary language directory. An engine still starting
   * is ended once started, without waiting for it (tesseract.js hands out its thread only then).
   */
  async close(): Promise<void> {
    const worker = this.worker;
    const languageData = this.languageData;
    this.worker = undefined;
    this.stopped = undefined;
    this.languageData = undefined;
    // Ended on the next turn of the event loop, not at once: a page handed over just before (its image
    // still being read by tesseract.js) is then already posted, and tesseract.js never posts to an
    // ended thread (that rejects inside tesseract.js, where no one can catch it).
    const ended = worker
      ?.then(async (started) => {
        await new Promise((resolve) => setImmediate(resolve));
        return started.terminate();
      })
      .catch(() => {});
    void ended?.finally(() => languageData?.release());
    if (!worker) await languageData?.release();
  }

  private async run(image: Uint8Array): Promise<string> {
    this.worker ??= this.start();
    const starting = this.worker;
    const worker = await starting;
    // Closed while it started (the page timed out): hand nothing to a thread being ended.
    if (this.worker !== starting) throw new Error('the OCR engine was closed while it started');
    const stopped = this.stopped ?? new Promise<never>(() => {});
    // Bytes, never a path or URL (which tesseract.js would read or fetch itself); copied to its thread.
    const buffer = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    const result = await Promise.race([worker.recognize(buffer, {}, { text: true }), stopped]);
    return result.data.text ?? '';
  }

  private async start(): Promise<Tesseract.Worker> {
    this.languageData ??= await prepareLanguageData(this.settings.languages, this.settings.model);
    const worker = await Tesseract.createWorker(this.languageData.languages, Tesseract.OEM.LSTM_ONLY, {
      langPath: this.languageData.langPath,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler, tesseract.js rethrows a failed job's error in its message listener (an
      // uncaught exception); the job's own promise is rejected either way.
      errorHandler: () => {},
      logger: () => {},
    });
    // tesseract.js listens for the thread's messages only: its death would leave a page waiting forever.
    const thread = (worker as Tesseract.Worker & { worker?: NodeJS.EventEmitter }).worker;
    this.stopped = new Promise<never>((_, reject) => {
      thread?.on('error', reject);
      thread?.on('exit', (code: number) => reject(new Error(`the OCR engine stopped (exit code ${code})`)));
    });
    this.stopped.catch(() => {});
    return worker;
  }
}

/** A worker thread that extracts the lines of the page ranges it is sent, one message per page. */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessages } from '../../error-messages-en.ts';
import { isRagentError, RagentError } from '../../errors.ts';
import type { OcrEngine } from '../ocr/ocr-engine.ts';
import type { PageRenderer } from '../ocr/render-page.ts';
import { findOversizedStream } from './check-streams.ts';
import { type FromWorker, isOcrFailure, type ToWorker, type WorkerInput } from './extract-protocol.ts';
import { FontWeights } from './font-weights.ts';
import { openPdf } from './open-pdf.ts';
import { installPlainClone } from './plain-clone.ts';
import { readOutline } from './read-outline.ts';
import { PageTextTooLarge, readPage } from './read-page.ts';
import { installSyncInflate } from './sync-inflate.ts';

if (!parentPort) throw new Error('extract-worker.ts runs only as a worker thread.');
const port = parentPort;
const input = workerData as WorkerInput;
const send = (message: FromWorker) => port.postMessage(message);
// Content streams are inflated in one zlib call, not through web streams (see sync-inflate.ts), and
// pdf.js's messages between its two halves are copied in JavaScript when plain data (plain-clone.ts).
installSyncInflate(input.maxStreamBytes);
installPlainClone();

// A joined thread's file was checked by the first thread (see extract-protocol.ts).
const oversized = input.joined
  ? undefined
  : findOversizedStream(new Uint8Array(input.bytes), input.maxStreamBytes, input.streamShare);
if (oversized !== undefined) {
  send({ type: 'stream-too-large', offset: oversized });
  port.close();
} else await start();

async function start(): Promise<void> {
  try {
    const document = await openPdf(new Uint8Array(input.bytes), input.name);
    send({ type: 'ready', pageCount: document.numPages });
    // The outline is read here (by the first worker), never in the thread that serves chats.
    if (input.streamShare.index === 0 && !input.joined)
      send({ type: 'outline', entries: await readOutline(document) });
    // Without an outline, headings come from fonts: the parent asks for their weights (bold at body size).
    const fontWeights = new FontWeights();
    // Pages without a text layer, with OCR on: rendered and recognised here, one at a time per thread
    // (so a scan of many pages never waits in memory as images), each within the OCR page limit.
    // The OCR modules (tesseract.js, the canvas) are loaded on the first such page only.
    let scans: Promise<{ renderer: PageRenderer; engine: OcrEngine }> | undefined;
    const startScans = async (settings: NonNullable<WorkerInput['ocr']>) => {
      const [{ PageRenderer }, { OcrEngine }] = await Promise.all([
        import('../ocr/render-page.ts'),
        import('../ocr/ocr-engine.ts'),
      ]).catch((error: unknown) => {
        throw new RagentError(
          'OCR_FAILED',
          errorMessages.OCR_FAILED.engineUnavailable({
            reason: error instanceof Error ? error.message : String(error),
          }),
          { cause: error },
        );
      });
      return {
        renderer: new PageRenderer(new Uint8Array(input.bytes), settings.maxPixels),
        engine: new OcrEngine(settings, input.name),
      };
    };
    port.on('message', async (message: ToWorker) => {
      if (message.type === 'close') {
        const started = await scans?.catch(() => undefined);
        await started?.engine.close();
        await started?.renderer.close();
        await document.destroy().catch(() => {});
        port.close();
        return;
      }
      for (let page = message.from; page <= message.to; page++) {
        try {
          const { text, chars } = await readPage(
            document,
            page,
            input.maxPageChars,
            message.fontWeights ? fontWeights : undefined,
          );
          if (text.lines.length === 0 && input.ocr) {
            // Told first, so that a small file's reader can add a thread for the next pages meanwhile.
            send({ type: 'scanning', page });
            scans ??= startScans(input.ocr);
            const { renderer, engine } = await scans;
            const recognised = await recogniseScannedPage(renderer, engine, page);
            send({ type: 'page', page: text, chars: chars + recognised.length, recognised });
            continue;
          }
          send({ type: 'page', page: text, chars });
        } catch (error) {
          if (error instanceof PageTextTooLarge) {
            // The parent refuses the file and terminates this worker; read nothing more.
            send({ type: 'page-too-large', page });
            return;
          }
          if (isRagentError(error) && isOcrFailure(error.code)) {
            // An OCR refusal (timeout, missing language) refuses the file: the parent stops every thread.
            send({ type: 'failed', code: error.code, message: error.message });
            return;
          }
          send({
            type: 'page-failed',
            page,
            message: error instanceof Error ? error.message : String(error),
          });
        }
      }
      send({ type: 'batch-done' });
    });
  } catch (error) {
    const code = isRagentError(error) && error.code === 'PDF_ENCRYPTED' ? 'PDF_ENCRYPTED' : 'PDF_CORRUPT';
    send({ type: 'failed', code, message: error instanceof Error ? error.message : String(error) });
    port.close();
  }
}

/**
 * A page pdf.js found no text on: rendered (a page that cannot be rendered is a page without text, as
 * when its text cannot be read) and recognised; OCR's refusals are thrown.
 */
async function recogniseScannedPage(
  renderer: PageRenderer,
  engine: OcrEngine,
  page: number,
): Promise<string> {
  let image: Uint8Array;
  try {
    image = await renderer.render(page);
  } catch {
    return '';
  }
  return engine.recognise(image, page);
}

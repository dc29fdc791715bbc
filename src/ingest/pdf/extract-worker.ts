/** A worker thread that extracts the lines of the page ranges it is sent, one message per page. */
import { parentPort, workerData } from 'node:worker_threads';
import { isRagentError } from '../../errors.ts';
import { findOversizedStream } from './check-streams.ts';
import type { FromWorker, ToWorker, WorkerInput } from './extract-protocol.ts';
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

const oversized = findOversizedStream(new Uint8Array(input.bytes), input.maxStreamBytes, input.streamShare);
if (oversized !== undefined) {
  send({ type: 'stream-too-large', offset: oversized });
  port.close();
} else await start();

async function start(): Promise<void> {
  try {
    const document = await openPdf(new Uint8Array(input.bytes), input.name);
    send({ type: 'ready', pageCount: document.numPages });
    // The outline is read here (by the first worker), never in the thread that serves chats.
    if (input.streamShare.index === 0) send({ type: 'outline', entries: await readOutline(document) });
    // Without an outline, headings come from fonts: the parent asks for their weights (bold at body size).
    const fontWeights = new FontWeights();
    port.on('message', async (message: ToWorker) => {
      if (message.type === 'close') {
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
          send({ type: 'page', page: text, chars });
        } catch (error) {
          if (error instanceof PageTextTooLarge) {
            // The parent refuses the file and terminates this worker; read nothing more.
            send({ type: 'page-too-large', page });
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

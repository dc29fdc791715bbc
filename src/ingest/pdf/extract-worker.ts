/** A worker thread that extracts the lines of the page ranges it is sent, one message per page. */
import { parentPort, workerData } from 'node:worker_threads';
import { isRagentError } from '../../errors.ts';
import type { FromWorker, ToWorker, WorkerInput } from './extract-protocol.ts';
import { openPdf } from './open-pdf.ts';
import { readPage } from './read-page.ts';

const port = parentPort;
if (!port) throw new Error('extract-worker.ts runs only as a worker thread.');
const input = workerData as WorkerInput;
const send = (message: FromWorker) => port.postMessage(message);

try {
  const document = await openPdf(new Uint8Array(input.bytes), input.name);
  send({ type: 'ready', pageCount: document.numPages });
  port.on('message', async (message: ToWorker) => {
    if (message.type === 'close') {
      await document.destroy().catch(() => {});
      port.close();
      return;
    }
    for (let page = message.from; page <= message.to; page++) {
      try {
        send({ type: 'page', page: await readPage(document, page) });
      } catch (error) {
        send({ type: 'page-failed', page, message: error instanceof Error ? error.message : String(error) });
      }
    }
    send({ type: 'batch-done' });
  });
} catch (error) {
  const code = isRagentError(error) && error.code === 'PDF_ENCRYPTED' ? 'PDF_ENCRYPTED' : 'PDF_CORRUPT';
  send({ type: 'failed', code, message: error instanceof Error ? error.message : String(error) });
  port.close();
}

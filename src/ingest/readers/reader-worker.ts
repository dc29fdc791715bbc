/** A worker thread that reads one file with its kind's reader and sends back the blocks (or the error). */
import { parentPort, workerData } from 'node:worker_threads';
import { isRagentError } from '../../errors.ts';
import type { ReaderWorkerInput, ReaderWorkerResult } from './reader-protocol.ts';
import { loadReader } from './reader-registry.ts';

if (!parentPort) throw new Error('reader-worker.ts runs only as a worker thread.');
const port = parentPort;
const input = workerData as ReaderWorkerInput;
const send = (message: ReaderWorkerResult) => port.postMessage(message);

try {
  const reader = await loadReader(input.kind);
  const document = await reader(new Uint8Array(input.bytes), { name: input.name, limits: input.limits });
  send({ type: 'done', document });
} catch (error) {
  send(
    isRagentError(error)
      ? { type: 'failed', code: error.code, message: error.message, details: error.details }
      : { type: 'crashed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) },
  );
}
port.close();

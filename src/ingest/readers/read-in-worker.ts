/**
 * Runs a format's reader in its own worker thread, never in the thread that serves chats: unzipping,
 * parsing XML and formatting a 100,000-row sheet take seconds of CPU. The worker's heap is capped at
 * RAGENT_INGEST_MEMORY_MB (a file needing more stops that worker, not ragent), the reading at
 * RAGENT_INGEST_TIMEOUT_S, and an abort terminates it at once; each ends with its own error code.
 */
import { Worker } from 'node:worker_threads';
import type { FileKind } from '../../core/file-kind.ts';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { ingestCancelled, readerOutOfMemory, readingTimedOut } from '../ingest-limits.ts';
import type { ExtractedDocument } from '../text-block.ts';
import type { ReaderOptions } from './reader.ts';
import type { ReaderWorkerInput, ReaderWorkerResult } from './reader-protocol.ts';

export function readInWorker(
  kind: FileKind,
  bytes: Uint8Array,
  options: ReaderOptions,
): Promise<ExtractedDocument> {
  const { name, limits, signal } = options;
  if (signal?.aborted) return Promise.reject(ingestCancelled(name, signal));
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  const input: ReaderWorkerInput = { kind, name, bytes: shared, limits };
  return new Promise<ExtractedDocument>((resolve, reject) => {
    const worker = new Worker(new URL('./reader-worker.mjs', import.meta.url), {
      workerData: input,
      resourceLimits: { maxOldGenerationSizeMb: limits.workerMemoryMb },
    });
    let settled = false;
    const finish = (error: Error | undefined, document?: ExtractedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(document as ExtractedDocument);
    };
    const timer = setTimeout(() => finish(readingTimedOut(name, limits)), limits.timeoutMs);
    timer.unref();
    const onAbort = () => finish(signal ? ingestCancelled(name, signal) : undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (message: ReaderWorkerResult) => {
      if (message.type === 'done') finish(undefined, message.document);
      else if (message.type === 'failed')
        finish(new RagentError(message.code, message.message, { details: message.details }));
      else
        finish(
          new RagentError('INTERNAL', errorMessages.INTERNAL.readerFailed({ name }), {
            cause: new Error(message.message),
          }),
        );
    });
    worker.on('error', (error: Error & { code?: string }) => {
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? readerOutOfMemory(name, limits, error)
          : new RagentError('INTERNAL', errorMessages.INTERNAL.readerThreadFailed({ name }), {
              cause: error,
            }),
      );
    });
    worker.on('exit', (code) => {
      finish(new RagentError('INTERNAL', errorMessages.INTERNAL.readerThreadExited({ name, code })));
    });
  });
}

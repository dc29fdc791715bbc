/**
 * RAGENT_THREAD_FILES_DAYS on the files attached to questions (`turns/thread-files.ts`): a file read
 * for one thread is removed — its document, chunks and vectors, through the index's own atomic
 * removal — that many days after it was read. Swept when a bot starts and then every hour, so a
 * process that runs for months keeps the promise too; the timer never keeps the process alive.
 *
 * Replica-safe: every replica sweeps, and a removal is idempotent (a document another replica removed
 * first is simply gone). With replicas each removal holds the file name's lock (the one an ingest of
 * that name holds) and looks at the document again under it, so a sweep never removes a file another
 * replica is writing at that moment.
 */
import { isThreadFilesScope } from '../core/ids.ts';
import type { NameLock } from '../core/name-lock.ts';
import type { DocumentRecord } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex } from '../retrieval/chunk-index.ts';

const dayMs = 24 * 60 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

export interface ThreadFilesSweepOptions {
  index: Pick<ChunkIndex, 'listAllDocuments' | 'getDocument' | 'removeDocument'>;
  days: number;
  logger: Logger;
  /** Replicas: one writer of a (scope, name) at a time (see `NameLock`). */
  withNameLock?: NameLock;
  /** How often (default hourly). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** Whether a thread's file is past its days at `now`. */
function expired(document: DocumentRecord, before: number): boolean {
  return isThreadFilesScope(document.scope) && Date.parse(document.ingestedAt) < before;
}

/** One pass: removes every thread's file read more than `days` ago; resolves with how many it removed. */
export async function sweepThreadFiles(options: ThreadFilesSweepOptions): Promise<number> {
  const { index, logger } = options;
  if (!index.listAllDocuments) return 0;
  const before = (options.now ?? Date.now)() - options.days * dayMs;
  const lock: NameLock = options.withNameLock ?? ((_scope, _name, work) => work());
  let removed = 0;
  for (const document of await index.listAllDocuments()) {
    if (!expired(document, before)) continue;
    const gone = await lock(document.scope, document.name, async () => {
      // Looked at again under the lock: another replica may have removed it, or written it anew.
      const current = await index.getDocument(document.id, document.scope);
      if (!current || !expired(current, before)) return false;
      return index.removeDocument(document.id, document.scope);
    });
    if (gone) {
      removed += 1;
      logger.debug({ documentId: document.id, scope: document.scope }, 'removed a thread file past its days');
    }
  }
  return removed;
}

/** Sweeps now and then every `intervalMs`; `close` stops the timer and waits for a pass in flight. */
export function startThreadFilesSweep(options: ThreadFilesSweepOptions): { close(): Promise<void> } {
  const { logger, days } = options;
  const sweep = async () => {
    try {
      const removed = await sweepThreadFiles(options);
      if (removed > 0) logger.info({ removed, days }, 'removed files attached to questions past their days');
    } catch (error) {
      logger.warn(
        { err: error },
        'could not remove files attached to questions past their days; will try again',
      );
    }
  };
  let running = sweep();
  const timer = setInterval(() => {
    running = running.then(sweep);
  }, options.intervalMs ?? hourMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

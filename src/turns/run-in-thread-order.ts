/**
 * A recorded answer runs in its thread's order (`ThreadOrder`: across replicas on PostgreSQL; at once
 * for one process, whose conversations queue a thread's turns). While it waits it shows its place in
 * the queue, and a stop may release it to the replicas that live on; a turn another replica took over
 * comes back as 'left'.
 */
import type { Place } from '../core/chat-platform.ts';
import type { ProgressEvent, TurnResult } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type { RunnableAnswer, RunnerContext, RunningJob } from './runner-context.ts';

export interface OrderedAnswer {
  job: RunnableAnswer;
  running: RunningJob;
  /** Where the answer's surface is now (what a replica that adopts it reopens). */
  location: Record<string, string>;
  place: Place;
  progress(event: ProgressEvent): void;
  answer(): Promise<TurnResult>;
}

export async function runInThreadOrder(
  context: RunnerContext,
  ordered: OrderedAnswer,
  log: Logger,
): Promise<TurnResult | 'left'> {
  const { job, running, place, progress } = ordered;
  const waiting = new AbortController();
  const run = await context.store.runInThreadOrder(
    {
      key: job.key,
      thread: job.thread,
      location: ordered.location,
      answer: {
        text: job.text,
        place: { threadId: place.threadId, scopes: [...place.scopes], user: place.user },
        reference: job.reference,
        ...(job.logFields ? { logFields: job.logFields } : {}),
      },
    },
    ordered.answer,
    {
      onQueued: (ahead) => {
        running.release = () => waiting.abort();
        progress({ type: 'queued', reason: 'thread-busy', position: ahead });
      },
      signal: waiting.signal,
      onStoreError: (error, what) => log.error({ err: error }, `could not ${what}; going on without it`),
    },
  );
  if (run.ran) return run.result;
  log.warn({ reason: run.reason }, 'turn left to the other replicas');
  return 'left';
}

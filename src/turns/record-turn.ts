/**
 * The turn's record for operators (`ragent report`): once the turn settled — answered, asked back,
 * stopped or failed with its code — what was asked, where, by whom, how long it took and what the
 * answer cited. Written after the turn ended, so it never delays the reply or the thread's next turn;
 * a failure to write it is only logged. A turn a stop gave up on, or left to another replica, is
 * recorded by whoever finishes it.
 */
import type { ChatPlatform, Place } from '../core/chat-platform.ts';
import { type SettledTurn, settledOutcome } from '../core/turn-history.ts';
import type { TurnResult } from '../core/types.ts';
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { type RunnableAnswer, type RunnerContext, type RunningJob, tryStore } from './runner-context.ts';

export interface TurnToRecord {
  job: RunnableAnswer;
  place: Place;
  platform: ChatPlatform;
  running: RunningJob;
  /** Epoch ms. */
  startedAt: number;
}

export async function recordTurn(
  context: RunnerContext,
  turn: TurnToRecord,
  settling: Promise<TurnResult | 'left'>,
  log: Logger,
): Promise<void> {
  const records = context.turnHistory;
  const settled: SettledTurn | 'left' = await settling.then(
    (result) => (result === 'left' ? result : { result }),
    (error: unknown) => ({ error: toRagentError(error) }),
  );
  if (settled === 'left' || turn.running.abandoned) return;
  const { job, place, platform, startedAt } = turn;
  const link = platform.threadLink?.(place);
  await tryStore(log, 'record the turn for the report', () =>
    records.recordTurn({
      ...settledOutcome(settled, job.key),
      platform: platform.name,
      scopes: [...place.scopes],
      threadId: place.threadId,
      user: place.user,
      question: job.text,
      startedAt: new Date(startedAt).toISOString(),
      durationMs: Date.now() - startedAt,
      ...(link ? { link } : {}),
    }),
  );
}

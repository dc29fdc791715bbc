/**
 * An answer's one claim path: claim the event (dedupe) and begin its turn record in one write, so a
 * crash from here on is told or taken over, never silent. An adopted answer is recorded already; a
 * job that needs no claim (the platform deduplicated it) only begins its record. A failed write lets
 * the answer go on unrecorded rather than drop it.
 */
import type { ChatPlatform } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import {
  claimAndBeginTurn,
  type RunnableAnswer,
  type RunnerContext,
  type RunningJob,
  tryStore,
} from './runner-context.ts';

/** False for a duplicate delivery (nothing more is done); sets `running.recorded` otherwise. */
export async function claimAndBegin(
  context: RunnerContext,
  platform: ChatPlatform,
  job: RunnableAnswer,
  running: RunningJob,
  log: Logger,
): Promise<boolean> {
  const record = {
    key: job.key,
    platform: platform.name,
    kind: 'answer' as const,
    location: job.location,
    thread: job.thread,
  };
  if (job.adopted) running.recorded = true;
  else if (job.claim) {
    const claimed = await claimAndBeginTurn(context, record, log);
    if (claimed === 'refused') {
      job.recorded?.();
      log.debug('duplicate delivery ignored');
      return false;
    }
    running.recorded = claimed === 'recorded';
  } else running.recorded = await tryStore(log, 'record the turn', () => context.store.beginTurn(record));
  // The platform may now confirm the delivery: from here a crash is told or taken over, never silent.
  job.recorded?.();
  return true;
}

/**
 * Stopping one platform or all: take no new work, drain with ONE bounded timeout, then tell the
 * abandoned threads (bounded too). A thread that could not be told keeps its record, so the next
 * start tells it. With replicas, answers still waiting for their thread's turn are released instead:
 * their records stay queued for a replica that lives on.
 */
import type { StopReport } from '../core/chat-platform.ts';
import { errorMessages } from '../error-messages-en.ts';
import { describeError, RagentError } from '../errors.ts';
import type { Sweeper } from './orphaned-turns.ts';
import type { RunnerContext } from './runner-context.ts';

export async function stopTurns(
  context: RunnerContext,
  sweeper: Sweeper,
  names: string[],
  timeoutMs: number,
): Promise<StopReport> {
  const { platforms, jobs, background, logger } = context;
  for (const name of names) {
    const attached = platforms.get(name);
    if (attached) attached.stopping = true;
  }
  if ([...platforms.values()].every((attached) => attached.stopping)) sweeper.stop();
  const mine = <T extends { platform: string }>(entries: Iterable<T>) =>
    [...entries].filter((entry) => names.includes(entry.platform));
  const drained = await settledWithin(
    [...mine(jobs), ...mine(background)].map((entry) => entry.done),
    timeoutMs,
  );
  const abandoned = mine(jobs);
  for (const job of abandoned) job.abandoned = true;
  // Replicas: answers still waiting for their thread are left to the replicas that live on.
  const released = abandoned.filter((job) => job.release);
  for (const job of released) job.release?.();
  const toTell = abandoned.filter((job) => !job.release);
  let told = 0;
  await settledWithin(
    toTell.map(async (job) => {
      const reply = job.abandonReply();
      const attached = platforms.get(job.platform);
      try {
        if (!job.surface || !attached)
          throw new RagentError('INTERNAL', errorMessages.INTERNAL.noStatusToReplace());
        await job.surface.finish(reply);
        told++;
        await context.endTurn(job.key);
      } catch (error) {
        logger.warn(
          { err: describeError(error), key: job.key, kind: job.kind, recorded: job.recorded },
          'could not tell an abandoned thread; the next start will',
        );
      }
    }),
    context.noticeTimeoutMs,
  );
  await context.endTurns();
  const report: StopReport = {
    drained: abandoned.length === 0,
    told,
    untold: toTell.length - told,
    ...(released.length > 0 ? { released: released.length } : {}),
  };
  if (!drained || abandoned.length > 0)
    logger.warn({ ...report, platforms: names }, 'stopped with work in flight');
  return report;
}

/** Resolves true when every promise settled within `timeoutMs`, false otherwise. */
async function settledWithin(work: Promise<unknown>[], timeoutMs: number): Promise<boolean> {
  if (work.length === 0) return true;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([Promise.allSettled(work).then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

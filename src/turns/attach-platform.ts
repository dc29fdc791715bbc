/**
 * A chat platform attaching to the runner: its edit budgets (per workspace or for the whole bot, as the
 * platform counts them; this replica's share), and the port it hands its work through — claims, answers, ingests, tracked background work,
 * its orphans at start (then swept, with replicas) and its own stop. Every job runs tracked, so a stop
 * sees it.
 */
import type { ChatPlatform, IngestFileState, PlatformTurns } from '../core/chat-platform.ts';
import { interruptedNow } from './ingest-location.ts';
import { type Sweeper, tellOrphans } from './orphaned-turns.ts';
import { createPlatformBudgets } from './platform-budgets.ts';
import { receiveMessage } from './receive-message.ts';
import { runAnswer } from './run-answer.ts';
import { runIngest } from './run-ingest.ts';
import {
  type AttachedPlatform,
  claimEvent,
  type RunnableAnswer,
  type RunnerContext,
  type RunningJob,
} from './runner-context.ts';
import { stopTurns } from './stop-turns.ts';

export function attachPlatform(
  context: RunnerContext,
  sweeper: Sweeper,
  platform: ChatPlatform,
  budgetShare: (() => number) | undefined,
): PlatformTurns {
  const attached: AttachedPlatform = {
    platform,
    budgets: createPlatformBudgets(platform, budgetShare),
    stopping: false,
  };
  context.platforms.set(platform.name, attached);
  const log = platform.logger;
  if (context.lost) loseTaking(attached);

  const start = (job: Omit<RunningJob, 'done'>, work: (job: RunningJob) => Promise<void>) => {
    const running = job as RunningJob;
    running.done = Promise.resolve()
      .then(() => work(running))
      .catch((error: unknown) => log.error({ err: error, key: job.key }, 'job failed'))
      .finally(() => context.jobs.delete(running));
    context.jobs.add(running);
  };

  const answer = (job: RunnableAnswer) => {
    // Adopted while this platform stops: its record stays, for a replica that lives on.
    if (job.adopted && attached.stopping) return;
    start(
      {
        platform: platform.name,
        budgets: attached.budgets.of(job.thread.threadId),
        kind: 'answer',
        key: job.key,
        recorded: false,
        abandoned: false,
        abandonReply: () => ({ kind: 'shutting-down' }),
      },
      (running) =>
        runAnswer(context, attached, job, running, log.child({ ...job.logFields, reference: job.reference })),
    );
  };

  const turns: PlatformTurns = {
    platform,
    get stopping() {
      return attached.stopping;
    },
    stopTaking: () => {
      attached.stopping = true;
    },
    receive: (message) => receiveMessage(context, turns, message, log),
    claim: (key) => claimEvent(context, key, log),
    answer: (job) => answer(job),
    ingest: (job) => {
      const files: IngestFileState[] = job.files.map((file) => ({ name: file.name, state: 'waiting' }));
      start(
        {
          platform: platform.name,
          budgets: attached.budgets.of(job.scope),
          kind: 'ingest',
          key: job.key,
          recorded: false,
          abandoned: false,
          abandonReply: () => ({ kind: 'interrupted-ingest', ingest: interruptedNow(files) }),
        },
        (running) =>
          runIngest(context, attached, job, files, running, log.child({ reference: job.reference })),
      );
    },
    track: (what, work) => {
      const entry = {
        platform: platform.name,
        done: Promise.resolve()
          .then(work)
          .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
          .finally(() => context.background.delete(entry)),
      };
      context.background.add(entry);
    },
    tellOrphans: async () => {
      const told = await tellOrphans(context, platform, log, answer);
      attached.sweep ??= () => tellOrphans(context, platform, log, answer, { concurrently: true });
      sweeper.start();
      return told;
    },
    stop: (timeoutMs) => stopTurns(context, sweeper, [platform.name], timeoutMs),
  };
  return turns;
}

/** The platform takes no new events: this replica lost the store it shares with the others. */
export function loseTaking(attached: AttachedPlatform) {
  attached.stopping = true;
  attached.platform.stopTaking?.().catch((error: unknown) => {
    attached.platform.logger.warn({ err: error }, 'could not stop taking events');
  });
}

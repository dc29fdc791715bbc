/**
 * Delivery of a running answer against its deadline (the conversation's plus its grace): the reply
 * when it comes first, then its record and the hand-off of a missed answer; else the "overdue"
 * notice, and the late reply still follows (a late failure was already said by the notice). A turn
 * left to another replica is neither told nor delivered here.
 */
import type { Place, Reply, ReplySurface } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import { deliver } from './deliver-reply.ts';
import { handOffMissed } from './hand-off-missed.ts';
import { recordAnswer } from './record-answer.ts';
import type { AttachedPlatform, RunnableAnswer, RunnerContext, RunningJob } from './runner-context.ts';
import type { AnswerProgress } from './show-progress.ts';

export interface AnswerToDeliver {
  job: RunnableAnswer;
  running: RunningJob;
  surface: ReplySurface;
  place: Place;
  shown: AnswerProgress;
  /** Epoch ms. */
  startedAt: number;
}

export async function deliverByDeadline(
  context: RunnerContext,
  attached: AttachedPlatform,
  answer: AnswerToDeliver,
  outcome: Promise<Reply | 'left'>,
  log: Logger,
): Promise<void> {
  const { deadlineMs } = context;
  const { platform } = attached;
  const { job, running, surface, place, shown } = answer;
  const record = (reply: Reply) =>
    recordAnswer(context, { platform, place, running, question: job.text, reply }, log);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<'overdue'>((resolve) => {
    timer = setTimeout(() => resolve('overdue'), deadlineMs);
  });
  try {
    const first = await Promise.race([outcome, overdue]);
    await shown.live.settle();
    await shown.plan.close(first !== 'overdue' && first !== 'left' && first.kind === 'answer');
    // Another replica holds the record now (or will adopt it): nothing is said or ended here.
    if (first === 'left') {
      running.abandoned = true;
      return;
    }
    if (first !== 'overdue') {
      await deliver(surface, running, first, log);
      await record(first);
      await handOffMissed(context, platform, place, job.text, first, log);
      log.info(
        { kind: first.kind, ms: Date.now() - answer.startedAt, threadId: place.threadId },
        'turn done',
      );
      return;
    }
    log.error({ seconds: deadlineMs / 1000, threadId: place.threadId }, 'turn overdue');
    await deliver(
      surface,
      running,
      { kind: 'overdue', seconds: Math.round(deadlineMs / 1000), reference: job.reference },
      log,
    );
    const late = await outcome;
    if (late === 'left') {
      running.abandoned = true;
      return;
    }
    // A late failure was already said by the overdue notice.
    if (late.kind !== 'error') await deliver(surface, running, late, log);
    await record(late);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer path, the same for every platform, as its steps: claim the event and begin the turn's
 * record in one write (`claimAndBegin`), so a crash never leaves a silent thread; acknowledge it
 * (`acknowledgeAnswer`: the acknowledgement gate lets new mentions' statuses go first); show status,
 * progress and streamed text (`showProgress`); answer it (`answerQuestion`), in its thread's order
 * once recorded (`runInThreadOrder`); deliver the reply or what failed (`turnReply`) against the
 * deadline and its overdue notice (`deliverByDeadline`); then end the record and record the turn for
 * the report (`recordTurn`). A turn taken over by another replica is neither told nor ended here.
 */
import type { TurnResult } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { acknowledgeAnswer } from './acknowledge-answer.ts';
import { answerQuestion } from './answer-question.ts';
import { claimAndBegin } from './claim-and-begin.ts';
import { deliverByDeadline } from './deliver-by-deadline.ts';
import { recordTurn } from './record-turn.ts';
import { runInThreadOrder } from './run-in-thread-order.ts';
import type { AttachedPlatform, RunnableAnswer, RunnerContext, RunningJob } from './runner-context.ts';
import { showProgress } from './show-progress.ts';
import { withThreadFiles } from './thread-files.ts';
import { turnReply } from './turn-reply.ts';

export async function runAnswer(
  context: RunnerContext,
  attached: AttachedPlatform,
  job: RunnableAnswer,
  running: RunningJob,
  log: Logger,
): Promise<void> {
  if (!(await claimAndBegin(context, attached.platform, job, running, log))) return;
  // A recorded answer takes its place in its thread's order once acknowledged (and moves with it).
  const ordered = running.recorded;
  const opened = await acknowledgeAnswer(context, attached, job, running, log);
  if (!opened) return;
  const { surface, place } = opened;
  // Every turn of the thread searches the files attached to its questions (and no other thread does);
  // the turn is recorded with the place's own scopes (a report counts it where it was asked).
  const searched = withThreadFiles(place);
  const shown = showProgress(context, attached, job, running, surface, log);
  const startedAt = Date.now();
  const answer = () => answerQuestion(context, { job, running, surface, searched, shown }, log);
  const turn: Promise<TurnResult | 'left'> = ordered
    ? runInThreadOrder(
        context,
        { job, running, location: surface.location, place, progress: shown.progress, answer },
        log,
      )
    : answer();
  const outcome = turnReply(turn, place, shown.live, job.reference, log);
  try {
    await deliverByDeadline(
      context,
      attached,
      { job, running, surface, place, shown, startedAt },
      outcome,
      log,
    );
  } finally {
    if (!running.abandoned) await context.endTurn(job.key);
    await recordTurn(context, { job, place, platform: attached.platform, running, startedAt }, turn, log);
  }
}

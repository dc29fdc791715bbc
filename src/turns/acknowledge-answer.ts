/**
 * The first acknowledgement of an answer: the job opens its surface (the status in the thread)
 * inside the acknowledgement gate, so new mentions' statuses go before the graph work and progress
 * edits of earlier ones. If it cannot be opened, the thread is told at the location recorded before
 * the surface existed.
 */
import type { AnswerJob } from '../core/chat-platform.ts';
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { tellAt } from './deliver-reply.ts';
import type { AttachedPlatform, RunnableAnswer, RunnerContext, RunningJob } from './runner-context.ts';

export type OpenedAnswer = Awaited<ReturnType<AnswerJob['open']>>;

/** The opened surface and place, or undefined when it could not be opened (the thread was told). */
export async function acknowledgeAnswer(
  context: RunnerContext,
  attached: AttachedPlatform,
  job: RunnableAnswer,
  running: RunningJob,
  log: Logger,
): Promise<OpenedAnswer | undefined> {
  const { gate } = context;
  const acknowledged = gate.begin();
  let opened: OpenedAnswer;
  try {
    opened = await job.open();
  } catch (error) {
    acknowledged();
    const ragentError = toRagentError(error);
    log.warn({ err: error, code: ragentError.code }, 'could not acknowledge the message');
    // Tell the thread where it could be reached before the surface existed.
    await tellAt(
      context,
      attached.platform,
      running,
      job.location,
      { kind: 'error', error: ragentError, reference: job.reference },
      log,
    );
    return undefined;
  }
  running.surface = opened.surface;
  acknowledged();
  await gate.clear(context.acknowledgementWaitMs);
  return opened;
}

/**
 * What a delivered answer was, for the feedback export (question, answer, sources, thread link); only
 * answers are recorded, never one a stop gave up on, and a failure to record it is only logged.
 */
import type { ChatPlatform, Place, Reply } from '../core/chat-platform.ts';
import type { Logger } from '../logger.ts';
import { type RunnerContext, type RunningJob, tryStore } from './runner-context.ts';

export interface DeliveredReply {
  platform: ChatPlatform;
  place: Place;
  running: RunningJob;
  question: string;
  reply: Reply;
}

export async function recordAnswer(context: RunnerContext, delivered: DeliveredReply, log: Logger) {
  const { platform, place, running, question, reply } = delivered;
  if (reply.kind !== 'answer' || running.abandoned) return;
  const link = platform.threadLink?.(place);
  await tryStore(log, 'record the answer', () =>
    context.store.recordAnswer({
      answerId: reply.answer.id,
      threadId: place.threadId,
      question,
      answer: reply.answer.body,
      sources: reply.answer.sources,
      ...(link ? { link } : {}),
    }),
  );
}

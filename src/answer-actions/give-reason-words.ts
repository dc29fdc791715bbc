/** The words sent with "Other…" (the form `choose-reason.ts` opened): the 👎's reason, with them. */
import { recordFeedbackReason } from '../turns/feedback-reason.ts';
import { feedbackReasonThanks } from '../turns/messages-en.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';

export async function giveReasonWords(
  context: AnswerActionContext,
  request: Pick<AnswerActionRequest, 'actor' | 'answerId' | 'threadId'>,
  words: string | undefined,
): Promise<ActionOutcome> {
  await recordFeedbackReason(context.services.coordination, {
    threadId: request.threadId,
    answerId: request.answerId,
    user: request.actor.id,
    reason: 'other',
    ...(words ? { comment: words } : {}),
  });
  return { text: feedbackReasonThanks };
}

/** The words sent with "Other…" (the form `choose-reason.ts` opened): the 👎's reason, with them. */
import type { Actor } from '../turns/actor.ts';
import { recordFeedbackReason } from '../turns/feedback-reason.ts';
import { feedbackReasonThanks } from '../turns/messages-en.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';
import { type PressedIds, readPressedIds } from './answer-press.ts';

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

/**
 * The form sent back, as the platform read it: its ids checked like a press's (a form of another
 * place stores nothing), then stored. What to tell the sender; undefined when nothing was stored.
 */
export async function submitReasonWords(
  context: AnswerActionContext,
  submitted: { ids: PressedIds; actor: Actor; words: string | undefined },
): Promise<string | undefined> {
  const ids = readPressedIds(submitted.ids, context.logger);
  if (!ids) return undefined;
  const { threadId, answerId } = ids;
  return (await giveReasonWords(context, { actor: submitted.actor, threadId, answerId }, submitted.words))
    .text;
}

/**
 * 👍/👎 on an answer: one vote per person and answer, the latest kept. A 👎 also hands the thread to
 * a person and asks why (the reasons: `choose-reason.ts`); what is said does not wait for the store,
 * so a platform that must answer at once can show `voteReply` first.
 */
import { feedbackReasonPrompt, feedbackThanksText } from '../turns/messages-en.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';
import { reasonButtons } from './answer-buttons.ts';
import { handOffThread } from './ask-person.ts';

export type Vote = 'up' | 'down';

/** What the voter is told: thanks, or (👎) the question why with the reasons; `value` goes on those buttons. */
export function voteReply(vote: Vote, value: string): ActionOutcome {
  return vote === 'up'
    ? { text: feedbackThanksText(vote) }
    : { text: feedbackReasonPrompt, buttons: reasonButtons(value) };
}

export async function vote(
  context: AnswerActionContext,
  request: AnswerActionRequest,
  choice: { vote: Vote; value: string },
): Promise<ActionOutcome> {
  const { threadId, answerId } = request;
  await context.services.coordination.recordFeedback({
    threadId,
    answerId,
    user: request.actor.id,
    value: choice.vote,
    at: new Date().toISOString(),
  });
  context.logger.info({ threadId, answerId, value: choice.vote }, 'feedback recorded');
  if (choice.vote === 'down')
    // The vote is stored: a hand-off that fails is logged, never taken back from the voter.
    await handOffThread(context, request, 'thumbs-down').catch((error: unknown) =>
      context.logger.warn({ err: error, threadId }, 'could not hand the thread to a person'),
    );
  return voteReply(choice.vote, choice.value);
}

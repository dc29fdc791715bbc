/** "Ask a person" on an answer, and the hand-off a 👎 makes: the thread goes to a person (`turns/hand-off.ts`). */
import { type HandOffOutcome, type HandOffReason, handOff, handOffOutcomeText } from '../turns/hand-off.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';

export async function askPerson(
  context: AnswerActionContext,
  request: AnswerActionRequest,
): Promise<ActionOutcome> {
  return { text: handOffOutcomeText(await handOffThread(context, request, 'asked')) };
}

export async function handOffThread(
  context: AnswerActionContext,
  request: AnswerActionRequest,
  why: HandOffReason,
): Promise<HandOffOutcome> {
  const { place, threadId } = request;
  // A direct message has no channel (and nobody of a group would see the line there).
  if (place.inDirectMessage) return { kind: 'no-target' };
  const { coordination, turnHistory } = context.stores;
  // The question is for the record only: a store that cannot say it does not stop the hand-off.
  const [delivered] = await coordination.findAnswers([request.answerId]).catch(() => []);
  return handOff(
    { claims: coordination, settings: coordination, turnHistory, logger: context.logger },
    {
      platform: context.platform,
      threadId,
      channel: place.channelScope,
      fallback: context.handOff.fallback,
      scopes: await place.scopes(),
      user: request.actor.id,
      ...(delivered?.threadId === threadId ? { question: delivered.question } : {}),
      ...(place.threadLink ? { link: place.threadLink } : {}),
      why,
      post: (target) => context.handOff.post(threadId, target),
    },
  );
}

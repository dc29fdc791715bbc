/** "Ask a person" on an answer, and the hand-off a 👎 makes: the thread goes to a person (`turns/hand-off.ts`). */
import { placeOfScope } from '../core/ids.ts';
import { withLinks } from '../turns/channel-links.ts';
import { scopesOfSets } from '../turns/document-commands.ts';
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
  const hands = context.handOff;
  // A direct message has no channel (and nobody of a group would see the line there); a platform
  // without a hand-off has nobody to hand to.
  if (place.inDirectMessage || !hands) return { kind: 'no-target' };
  const { channelScope } = place;
  const { services, logger } = context;
  const { coordination, turnHistory } = services;
  // The question and the scopes are for the record only: a store that cannot say them stops nothing.
  const [delivered] = await coordination.findAnswers([request.answerId]).catch(() => []);
  const sets = { channel: channelScope, place: placeOfScope(channelScope) ?? channelScope, placeName: '' };
  const link = context.threadLink(threadId);
  return handOff(
    { claims: coordination, settings: coordination, turnHistory, logger },
    {
      platform: context.platform,
      threadId,
      channel: channelScope,
      fallback: hands.fallback,
      scopes: scopesOfSets(await withLinks(coordination, sets, logger)),
      user: request.actor.id,
      ...(delivered?.threadId === threadId ? { question: delivered.question } : {}),
      ...(link ? { link } : {}),
      why,
      post: (target) => hands.post(threadId, target),
    },
  );
}

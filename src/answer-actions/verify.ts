/**
 * "Verify" on an answer (`turns/verify-answer.ts`): only in a channel, only by someone who manages
 * the workspace or server (or is in RAGENT_ADMINS); the platform then marks the answer's message.
 */
import {
  verifiedConfirmText,
  verifyDeniedText,
  verifyInDirectMessageText,
  verifyUnknownText,
} from '../turns/messages-en.ts';
import { verifyAnswer } from '../turns/verify-answer.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';

export async function verify(
  context: AnswerActionContext,
  request: AnswerActionRequest,
): Promise<ActionOutcome> {
  const { actor, place } = request;
  const { markup } = context;
  if (place.inDirectMessage) return { text: verifyInDirectMessageText };
  if (!(await actor.managesPlace()))
    return {
      text: `${markup.icons.warning} ${verifyDeniedText(markup.terms.placeAdmin ?? markup.terms.admin)}`,
    };
  const outcome = await verifyAnswer(
    { feedback: context.services.coordination, verifiedAnswers: context.services.verifiedAnswers },
    { answerId: request.answerId, threadId: request.threadId, scope: place.channelScope, by: actor.id },
  );
  if (outcome.kind === 'unknown') return { text: verifyUnknownText };
  context.logger.info({ verifiedAnswer: outcome.answer.id, threadId: request.threadId }, 'answer verified');
  return { text: verifiedConfirmText, verifiedBy: actor.name };
}

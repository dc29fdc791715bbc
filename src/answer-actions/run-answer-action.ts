/** One pressed button under an answer (or a 👎 reason), to its operation; a failure is told to the person who pressed. */
import { toRagentError } from '../errors.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';
import { type ActionButton, actionValue, isVote } from './answer-buttons.ts';
import { askPerson } from './ask-person.ts';
import { chooseReason } from './choose-reason.ts';
import { verify } from './verify.ts';
import { vote } from './vote.ts';

export async function runAnswerAction(
  context: AnswerActionContext,
  action: ActionButton['action'],
  request: AnswerActionRequest,
): Promise<ActionOutcome> {
  try {
    if (isVote(action)) {
      const value = (context.buttonValue ?? actionValue)(request);
      return await vote(context, request, { vote: action === 'vote:up' ? 'up' : 'down', value });
    }
    if (action === 'verify') return await verify(context, request);
    if (action === 'ask-person') return await askPerson(context, request);
    const [, reason] = action.split(':') as ['reason', Parameters<typeof chooseReason>[2]];
    return await chooseReason(context, request, reason);
  } catch (error) {
    context.logger.warn({ err: error, action, answerId: request.answerId }, 'an answer action failed');
    const { markup } = context;
    return { text: `${markup.icons.warning} ${markup.literal(toRagentError(error).message)}` };
  }
}

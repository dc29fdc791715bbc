/** One pressed button besides the vote, to its operation; a failure is told to the person who pressed. */
import { toRagentError } from '../errors.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest } from './answer-action.ts';
import type { AnswerActionName } from './answer-buttons.ts';
import { askPerson } from './ask-person.ts';
import { chooseReason } from './choose-reason.ts';
import { verify } from './verify.ts';

export async function runAnswerAction(
  context: AnswerActionContext,
  action: AnswerActionName,
  request: AnswerActionRequest,
): Promise<ActionOutcome> {
  try {
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

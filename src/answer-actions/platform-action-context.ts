/**
 * The answer actions' context from what a platform declared once when it attached: its name, its
 * logger, its hand-off to a person and its thread links. The platform adds only how its text is
 * written and, where its buttons carry less, what they carry back.
 */
import type { ChatPlatform } from '../core/chat-platform.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import type { AnswerActionContext } from './answer-action.ts';

export function platformActionContext(
  services: AnswerActionContext['services'],
  platform: ChatPlatform,
  markup: ChatMarkup,
  buttonValue?: AnswerActionContext['buttonValue'],
): AnswerActionContext {
  return {
    services,
    logger: platform.logger,
    markup,
    platform: platform.name,
    ...(platform.handOff ? { handOff: platform.handOff } : {}),
    threadLink: (threadId) => platform.threadLink?.({ threadId }),
    ...(buttonValue ? { buttonValue } : {}),
  };
}

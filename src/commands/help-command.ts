/** `help`: what ragent does and every command, in the platform's terms (then the auto-answer line). */
import type { ChatMarkup } from '../turns/chat-markup.ts';
import { helpIntro, helpLineText, helpTopics } from '../turns/messages-en.ts';
import type { CommandOperation } from './command-request.ts';
import { withAutoAnswerStatus } from './with-auto-answer-status.ts';

export const helpCommand: CommandOperation = (request, services) =>
  withAutoAnswerStatus(helpText(request.markup, request.place.readsEveryMessage), request, services);

/** `readsEveryReply`: whether a follow-up in a thread needs no mention. */
export function helpText(markup: ChatMarkup, readsEveryReply: boolean): string {
  const topics: Array<[string, string]> = [
    ...helpTopics(markup.terms, readsEveryReply),
    ['Help', helpLineText],
  ];
  return [
    markup.bold(markup.literal(helpIntro(markup.terms))),
    ...topics.map(([topic, text]) => `• ${markup.bold(`${topic}:`)} ${text}`),
  ].join('\n');
}

/** The channel's auto-answer line, under `docs` and `help` (none in a DM). */
import { readAutoAnswer } from '../turns/auto-answer.ts';
import { autoAnswerStatusText } from '../turns/messages-en.ts';
import type { CommandRequest, CommandServices } from './command-request.ts';

export async function withAutoAnswerStatus(text: string, request: CommandRequest, services: CommandServices) {
  const { place, markup } = request;
  if (place.inDirectMessage || !place.sets.channel) return text;
  const on = await readAutoAnswer(services.coordination, place.sets.channel, services.logger);
  const command = markup.terms.autoAnswerCommand ?? markup.code('/ragent autoanswer');
  return `${text}\n\n${autoAnswerStatusText(on, command)}${unreadableNote(on, request)}`;
}

/** Said when auto-answer is on but the bot cannot read the messages it would answer. */
export function unreadableNote(on: boolean, { place, markup }: CommandRequest): string {
  const note = markup.terms.cannotReadUnmentionedText;
  return on && !place.readsEveryMessage && note ? `\n${note}` : '';
}

/**
 * An answer's text, decided once for every platform: where its sources are listed apart (under the
 * last message, with its buttons), the body alone; without any, the Markdown, which says so itself.
 */
import type { Answer } from '../core/types.ts';
import { emptyAnswerText } from '../turns/messages-en.ts';
import { splitMessage } from './split-message.ts';

export function answerText(answer: Answer): string {
  return answer.sources.length > 0 ? answer.body : answer.markdown;
}

/** The text in messages within the platform's limit; never none, so its sources and buttons have a place. */
export function answerParts(answer: Answer, maxLength: number): string[] {
  const parts = splitMessage(answerText(answer), maxLength);
  return parts.length > 0 ? parts : [emptyAnswerText];
}

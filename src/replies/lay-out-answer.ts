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

/**
 * The text as shown: never empty, so the sources and buttons have a message to go under, and a status
 * is never replaced by nothing (which reads as silence).
 */
export function shownAnswerText(answer: Answer): string {
  const text = answerText(answer);
  return text.trim() ? text : emptyAnswerText;
}

/** The text in messages within the platform's limit; never none. */
export function answerParts(answer: Answer, maxLength: number): string[] {
  const parts = splitMessage(shownAnswerText(answer), maxLength);
  return parts.length > 0 ? parts : [emptyAnswerText];
}

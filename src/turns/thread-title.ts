/**
 * The title of a thread the bot starts for a question: its first line with the formatting marks taken
 * out, cut to the platform's limit by code point (never half an emoji), or "Question from <author>"
 * when the question has no words to show.
 */
import { untitledQuestionText } from './messages-en.ts';

export function threadTitle(text: string, author: string, maxLength: number): string {
  const firstLine =
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/[`*_~|>#]/g, '')
      .trim() ?? '';
  const points = Array.from(firstLine || untitledQuestionText(author));
  return points.length <= maxLength
    ? points.join('')
    : `${points
        .slice(0, maxLength - 1)
        .join('')
        .trimEnd()}…`;
}

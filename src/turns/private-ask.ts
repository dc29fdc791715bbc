/**
 * `/ragent ask <question>` on any platform: an empty question or a stopping bot is told to the asker
 * alone; anything else runs as a private answer (`private-answers.ts`), shown only to them
 * (`private-surface.ts`).
 */
import type { PlatformTurns } from '../core/chat-platform.ts';
import { askEmptyText, restartingText } from './messages-en.ts';
import { askPrivately, type PrivateQuestion } from './private-answers.ts';

/** Runs `/ragent ask`; `tell` says a short notice to the asker only. */
export async function runPrivateAsk(
  turns: PlatformTurns,
  question: PrivateQuestion,
  tell: (text: string) => Promise<void>,
): Promise<void> {
  const text = question.text.trim();
  if (!text) return tell(askEmptyText);
  // Nothing is started while the bot stops: the asker would otherwise wait for an answer that never comes.
  if (turns.stopping) return tell(restartingText);
  askPrivately(turns, { ...question, text });
}

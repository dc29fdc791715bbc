/**
 * `/ragent ask <question>` on any platform: an empty question or a stopping bot is told to the asker
 * alone; anything else runs as a private answer (`private-answers.ts`), shown only to them. What the
 * asker sees alongside a private reply (the note that only they see it, the Share action) is
 * `privateReplyExtras`; the platform renders both in its own syntax.
 */
import type { PlatformTurns, Reply } from '../core/chat-platform.ts';
import {
  askEmptyText,
  privateAnswerFooterText,
  privateClarificationFooterText,
  restartingText,
  shareButtonText,
} from './messages-en.ts';
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

/** What a private reply shows besides the reply itself. */
export interface PrivateReplyExtras {
  /** A short note under the reply (only the asker sees it; how to go on). */
  footer?: string;
  /** The Share action under an answer: its label, and the answer's id it shares. */
  share?: { label: string; answerId: string };
}

export function privateReplyExtras(reply: Reply): PrivateReplyExtras {
  if (reply.kind === 'answer')
    return {
      footer: privateAnswerFooterText,
      share: { label: shareButtonText, answerId: reply.answer.id },
    };
  if (reply.kind === 'clarification') return { footer: privateClarificationFooterText };
  return {};
}

/**
 * `/ragent ask <question>` on any platform, run as a private answer (`private-answers.ts`): the same
 * turn as a mention, in the asker's own conversation, shown only to them (`private-surface.ts`).
 */
import type { PlatformTurns, ReplySurface } from '../core/chat-platform.ts';
import { encodeId } from '../core/ids.ts';
import type { Scope } from '../core/types.ts';
import { askEmptyText, restartingText } from './messages-en.ts';
import { type PrivateAsker, privateThreadId } from './private-answers.ts';

/** A private question as a platform received it (a slash command). */
export interface PrivateQuestion {
  asker: PrivateAsker;
  /** The command's unique id (a redelivery has the same): the event's key. */
  id: string;
  text: string;
  reference: string;
  /**
   * The platform's timestamp of the command as a decimal string: a private conversation's turns run
   * one at a time in this order.
   */
  position: string;
  /** Where the asker can be reached privately (recorded with the turn; `reopen` tells them there). */
  location: Record<string, string>;
  /** The channel's scopes, as for any question asked there (never from the text). */
  scopes(): Promise<Scope[]>;
  /** Shows the first private status; the surface shows the rest to the asker only. */
  open(): Promise<ReplySurface>;
}

/**
 * Runs `/ragent ask` in the asker's own conversation; `tell` says a short notice to the asker only
 * (an empty question, a stopping bot: nothing is started, or they would wait for nothing).
 */
export async function runPrivateAsk(
  turns: PlatformTurns,
  question: PrivateQuestion,
  tell: (text: string) => Promise<unknown>,
): Promise<void> {
  const text = question.text.trim();
  if (!text || turns.stopping) {
    await tell(text ? restartingText : askEmptyText);
    return;
  }
  const threadId = privateThreadId(question.asker);
  turns.answer({
    key: encodeId(question.asker.platform, [question.asker.workspace, 'ask', question.id]),
    text,
    reference: question.reference,
    logFields: { threadId, private: 'true' },
    location: question.location,
    thread: { threadId, position: question.position },
    claim: true,
    open: async () => {
      const scopes = await question.scopes();
      const surface = await question.open();
      return { surface, place: { threadId, scopes, user: question.asker.user } };
    },
  });
}

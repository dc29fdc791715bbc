/**
 * `/ragent ask <question>` on any platform, run as a private answer (`private-answers.ts`): the same
 * turn as a mention, in the asker's own conversation, shown only to them (`private-surface.ts`).
 */
import type { PlatformTurns } from '../core/chat-platform.ts';
import { encodeId } from '../core/ids.ts';
import type { Scope } from '../core/types.ts';
import { openPrivateSurface, type PrivateReplyPort, privateSurface } from '../replies/private-surface.ts';
import { askEmptyText, privateWorkingText, restartingText } from '../turns/messages-en.ts';
import { type PrivateAsker, privateThreadId } from '../turns/private-answers.ts';

/** A private question as a platform received it (a slash command); `Message` is its own payload. */
export interface PrivateQuestion<Message> {
  asker: PrivateAsker;
  /** The command's unique id (a redelivery has the same): the event's key. */
  id: string;
  text: string;
  /** The command as people type it (`/ragent`): the turn's reference is `<command> ask <id>`. */
  command: string;
  /**
   * The platform's timestamp of the command as a decimal string, where it has one: a private
   * conversation's turns run one at a time in this order.
   */
  position?: string;
  /** The channel's scopes, as for any question asked there (never from the text). */
  scopes(): Promise<Scope[]>;
  /**
   * The asker's private messages for this command (`replies/private-surface.ts`); its location is
   * recorded with the turn (`reopen` tells the asker there).
   */
  port: PrivateReplyPort<Message>;
  /**
   * What the platform shows already through the short-lived reply (an acknowledgement the status then
   * edits); none: the private "working…" is sent first, and the reply replaces it.
   */
  shown?: readonly string[];
}

const privateWorking = { kind: 'working', line: privateWorkingText } as const;

/**
 * Runs `/ragent ask` in the asker's own conversation. An empty question or a stopping bot starts
 * nothing (they would wait for nothing): the asker alone is told, through the command's private
 * reply, in place of what it shows already where it shows something.
 */
export async function runPrivateAsk<Message>(
  turns: PlatformTurns,
  question: PrivateQuestion<Message>,
): Promise<void> {
  const text = question.text.trim();
  const { port, shown } = question;
  if (!text || turns.stopping) {
    await port.reply(port.render.notice(text ? restartingText : askEmptyText), shown !== undefined);
    return;
  }
  const threadId = privateThreadId(question.asker);
  turns.answer({
    key: encodeId(question.asker.platform, [question.asker.workspace, 'ask', question.id]),
    text,
    reference: `${question.command} ask ${question.id}`,
    logFields: { threadId, private: 'true' },
    location: question.port.location(),
    // A command without a timestamp of its own: the time it arrived orders the asker's private turns.
    thread: { threadId, position: question.position ?? (Date.now() / 1000).toFixed(6) },
    claim: true,
    open: async () => {
      const scopes = await question.scopes();
      const surface = shown
        ? privateSurface(port, { shown })
        : await openPrivateSurface(port, privateWorking);
      return { surface, place: { threadId, scopes, user: question.asker.user } };
    },
  });
}

/**
 * "Ask ragent" on an existing message, on any platform (a message shortcut, a message command): the
 * person who chose it asks ragent that message, answered in the message's thread (the one it replies
 * in, or the one under it) through the same runner as a mention: scopes from the channel, the asker
 * as the turn's user, the thread read first when ragent is not in it yet. Chosen twice, it is answered
 * once (one key per message). A message with no text, or ragent's own, is not a question: the asker
 * alone is told so.
 */
import type { PlatformTurns } from '../core/chat-platform.ts';
import { encodeId } from '../core/ids.ts';
import { type AnswerThread, openAnswer, type ThreadRange } from './answer-thread.ts';
import { askEmptyMessageText, askInThreadText, askOwnMessageText, restartingText } from './messages-en.ts';

/** The message asked on, read from the platform's payload (its text with mentions made readable). */
export interface MessageAsk {
  platform: string;
  workspace: string;
  channel: string;
  messageId: string;
  text: string;
  /** Written by ragent itself. */
  fromBot: boolean;
  /** Who chose "Ask ragent". */
  asker: string;
  /** Orders this turn among the thread's others (the platform's timestamp or growing id). */
  position: string;
}

export type { ThreadRange };

/** The thread the answer goes to, as the platform found it (`answer-thread.ts`). */
export interface MessageThread extends AnswerThread {
  /** The message starts the thread (its replies come after it) rather than replying in it. */
  startsThread: boolean;
}

export interface MessageAskPlatform {
  /** Says `text` to the asker only; called once. */
  tell(text: string): Promise<void>;
  /** The platform must answer the choice at once: it is told where the answer goes. */
  confirms: boolean;
  /** The message's thread (asked after the asker was answered: it may take a request). */
  thread(): Promise<MessageThread>;
}

export async function askOnMessage(turns: PlatformTurns, ask: MessageAsk, platform: MessageAskPlatform) {
  const text = ask.text.trim();
  const refusal = ask.fromBot
    ? askOwnMessageText
    : !text
      ? askEmptyMessageText
      : turns.stopping && restartingText;
  if (refusal) return platform.tell(refusal);
  if (platform.confirms) await platform.tell(askInThreadText);
  const thread = await platform.thread();
  const { threadId } = thread;
  const range: ThreadRange = thread.startsThread
    ? { exclude: ask.messageId, skipOwn: true }
    : { before: ask.messageId };
  turns.answer({
    key: encodeId(ask.platform, [ask.workspace, ask.channel, 'ask', ask.messageId]),
    text,
    reference: `ask ${ask.channel}/${ask.messageId}`,
    logFields: { threadId, messageId: ask.messageId, askedBy: ask.asker },
    location: thread.location,
    thread: { threadId, position: ask.position },
    claim: true,
    open: () => openAnswer(thread, text, ask.asker),
    readThread: (limit) => thread.read(range, limit),
  });
}

/**
 * "Ask ragent" on an existing message, on any platform (a message shortcut, a message command): the
 * person who chose it asks ragent that message. It is answered in the message's thread — the thread
 * it replies in, or the thread under it when it starts one — through the same runner as a mention:
 * scopes from the channel, the asker as the turn's user, the thread read first when ragent is not in
 * it yet. Chosen twice, or delivered twice, the message is answered once (one key per message).
 * A message with no text, or ragent's own, is not a question: the asker alone is told so.
 */
import type { Location, PlatformTurns, ReplySurface } from '../core/chat-platform.ts';
import { encodeId } from '../core/ids.ts';
import type { Scope, ThreadId, ThreadMessage } from '../core/types.ts';
import { askEmptyMessageText, askInThreadText, askOwnMessageText, restartingText } from './messages-en.ts';

/** The message asked on, read from the platform's payload. */
export interface MessageAsk {
  platform: string;
  /** The workspace/server. */
  workspace: string;
  channel: string;
  /** The message's id (its timestamp where the platform names messages so). */
  messageId: string;
  /** Its text, the bot's mention removed and other mentions readable. */
  text: string;
  /** Written by ragent itself. */
  fromBot: boolean;
  /** Who chose "Ask ragent". */
  asker: string;
  /** Orders this turn among the thread's others (the platform's timestamp or growing id). */
  position: string;
}

/** Which messages of the thread are context for the question. */
export interface ThreadRange {
  /** Only messages before this one. */
  before?: string;
  /** A message that is not context (the question itself). */
  exclude?: string;
  /** Leave out the bot's own messages (read after the status was posted, that is all they are). */
  skipOwn?: boolean;
}

/** The thread the answer goes to, as the platform found it. */
export interface MessageThread {
  threadId: ThreadId;
  /** The message starts the thread (its replies come after it) rather than replying in it. */
  startsThread: boolean;
  /** Where the thread can be reached before `open` (recorded at once). */
  location: Location;
  scopes(): Promise<Scope[]>;
  /** Shows the first status in the thread (starting the thread first where the platform must). */
  open(question: string): Promise<ReplySurface>;
  read(range: ThreadRange, limit: number): Promise<ThreadMessage[]>;
}

/** What the platform gives: telling the asker privately, and finding the message's thread. */
export interface MessageAskPlatform {
  /** Says `text` to the asker only. */
  tell(text: string): Promise<void>;
  /** The platform must answer the choice at once (it then says where the answer goes). */
  confirms: boolean;
  /** The message's thread (read after the asker was answered: it may take a request). */
  thread(): Promise<MessageThread>;
}

/** Why the message cannot be asked, in words for the asker; undefined when it can. */
export function messageAskRefusal(ask: MessageAsk, stopping: boolean): string | undefined {
  if (ask.fromBot) return askOwnMessageText;
  if (!ask.text.trim()) return askEmptyMessageText;
  return stopping ? restartingText : undefined;
}

export async function askOnMessage(
  turns: PlatformTurns,
  ask: MessageAsk,
  platform: MessageAskPlatform,
): Promise<void> {
  const refusal = messageAskRefusal(ask, turns.stopping);
  if (refusal) return platform.tell(refusal);
  if (platform.confirms) await platform.tell(askInThreadText);
  const thread = await platform.thread();
  const text = ask.text.trim();
  // Asked on a thread's first message: its replies so far; on a reply: what came before it.
  const range: ThreadRange = thread.startsThread
    ? { exclude: ask.messageId, skipOwn: true }
    : { before: ask.messageId };
  turns.answer({
    key: encodeId(ask.platform, [ask.workspace, ask.channel, 'ask', ask.messageId]),
    text,
    reference: `ask ${ask.channel}/${ask.messageId}`,
    logFields: { threadId: thread.threadId, messageId: ask.messageId, askedBy: ask.asker },
    location: thread.location,
    thread: { threadId: thread.threadId, position: ask.position },
    claim: true,
    open: async () => {
      const surface = await thread.open(text);
      return {
        surface,
        place: { threadId: thread.threadId, scopes: await thread.scopes(), user: ask.asker },
      };
    },
    readThread: (limit) => thread.read(range, limit),
  });
}

/**
 * Reads a Discord thread the bot joins: the messages before the question (REST `GET
 * /channels/{thread}/messages` with `before` and `limit`, newest first, 100 a page), and, for a
 * thread started from a message, that starter message in the parent channel (it opened the
 * discussion). Newest last, at most `limit`. Each author is named as the server shows them (their
 * nickname when known here, else their global name or user name); mentions in the text become
 * names; the bot's own messages are marked as its own. The core makes the rest inert and fits it to
 * the token budget. Without the Message Content intent Discord sends other people's messages
 * without text: those are skipped by the core (empty).
 */
import type { Message, ThreadChannel } from 'discord.js';
import type { ThreadMessage } from '../../core/types.ts';
import { RagentError } from '../../errors.ts';

/** Discord's largest page of channel messages. */
const pageSize = 100;

export interface DiscordThreadRead {
  /** Only messages before this one (the question); unset: the thread so far. */
  before?: string;
  /** A message that is not context: the question itself (a thread started from it). */
  exclude?: string;
  /** Leave out the bot's own messages (read after the answer's status was posted, that is all they are). */
  skipOwn?: boolean;
}

export async function readDiscordThread(
  thread: ThreadChannel,
  where: DiscordThreadRead,
  botId: string,
  limit: number,
): Promise<ThreadMessage[]> {
  const newestFirst: Message[] = [];
  let before = where.before;
  while (newestFirst.length < limit) {
    const page = await fetchPage(thread, {
      ...(before ? { before } : {}),
      limit: Math.min(pageSize, limit - newestFirst.length),
      cache: false,
    });
    if (page.size === 0) break;
    const sorted = [...page.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
    newestFirst.push(...sorted);
    before = sorted.at(-1)!.id;
    if (page.size < pageSize) break;
  }
  const messages = newestFirst.reverse();
  // A thread started from a message has that message's id; the thread's own list does not hold it.
  if (
    messages.length < limit &&
    thread.parentId &&
    thread.id !== where.exclude &&
    !messages.some((message) => message.id === thread.id)
  ) {
    const starter = await thread.fetchStarterMessage({ cache: false }).catch(() => null);
    if (starter) messages.unshift(starter);
  }
  return messages
    .filter((message) => message.id !== where.exclude && !(where.skipOwn && message.author.id === botId))
    .filter((message) => !message.system || message.content)
    .map((message) => ({
      author: message.author.id === botId ? 'ragent' : authorName(message),
      text: readableText(message, botId),
      fromBot: message.author.id === botId,
      at: new Date(message.createdTimestamp).toISOString(),
    }));
}

function authorName(message: Message): string {
  return message.member?.displayName ?? message.author.globalName ?? message.author.username;
}

/** The text with `<@id>` as `@name` (the bot as `@ragent`); roles by name where known. */
function readableText(message: Message, botId: string): string {
  return message.content
    .replace(/<@!?(\d+)>/g, (_all, id: string) =>
      id === botId ? '@ragent' : `@${message.mentions.users.get(id)?.username ?? 'someone'}`,
    )
    .replace(/<@&(\d+)>/g, (_all, id: string) => `@${message.mentions.roles.get(id)?.name ?? 'role'}`)
    .trim();
}

/** One page; a refusal says what to fix (the log shows it once: the turn goes on without the thread). */
async function fetchPage(thread: ThreadChannel, options: { before?: string; limit: number; cache: false }) {
  try {
    return await thread.messages.fetch(options);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (status === 403)
      throw new RagentError(
        'PERMISSION_DENIED',
        'Discord refused to read the thread (403): give ragent the View Channel and Read Message History permissions in this channel.',
        { cause: error },
      );
    throw error;
  }
}

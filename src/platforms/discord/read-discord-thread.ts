/**
 * Reads a Discord thread the bot joins: the messages before the question (REST `GET
 * /channels/{thread}/messages` with `before` and `limit`, newest first, 100 a page), and, for a
 * thread started from a message, that starter message in the parent channel (it opened the
 * discussion). Newest last, at most `limit`. Each author is named as the server shows them (their
 * nickname, looked up once per person per read, else their global name or user name); mentions in the text become
 * names; the bot's own messages are marked as its own. The core makes the rest inert and fits it to
 * the token budget. Without the Message Content intent Discord sends other people's messages
 * without text: those are skipped by the core (empty).
 */
import type { Message, ThreadChannel } from 'discord.js';
import type { ThreadMessage } from '../../core/types.ts';
import { RagentError } from '../../errors.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';

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
  const kept = messages
    .filter((message) => message.id !== where.exclude && !(where.skipOwn && message.author.id === botId))
    .filter((message) => !message.system || message.content);
  const names = memberNames(thread);
  const read: ThreadMessage[] = [];
  for (const message of kept) {
    read.push({
      author: message.author.id === botId ? 'ragent' : await names(message),
      text: readableText(message, botId),
      fromBot: message.author.id === botId,
      at: new Date(message.createdTimestamp).toISOString(),
    });
  }
  return read;
}

/** Members named by lookups per read, at most: further ones keep their global name. */
const maxLookups = 25;

/**
 * Each author as the server shows them: their nickname (`GET /guilds/{id}/members/{user}`, which
 * needs no privileged intent), asked once per person per read; else their global or user name.
 */
function memberNames(thread: ThreadChannel): (message: Message) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  return (message) => {
    const fallback = message.author.globalName ?? message.author.username;
    if (message.webhookId || message.author.bot) return Promise.resolve(fallback);
    let name = cache.get(message.author.id);
    if (!name) {
      // A thread reached through REST alone may not know its server here: names stay global then.
      const members = (thread.guild as ThreadChannel['guild'] | undefined)?.members;
      name =
        !members || cache.size >= maxLookups
          ? Promise.resolve(fallback)
          : members
              .fetch({ user: message.author.id, cache: false })
              .then((member) => member.nickname ?? fallback)
              .catch(() => fallback);
      cache.set(message.author.id, name);
    }
    return name;
  };
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
      throw new RagentError('PERMISSION_DENIED', discordErrorMessages.PERMISSION_DENIED.threadUnreadable(), {
        cause: error,
      });
    throw error;
  }
}

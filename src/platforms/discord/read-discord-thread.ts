/**
 * A Discord thread the bot joins, read through the core's `readThread`: REST `GET
 * /channels/{thread}/messages` pages back from the question (`before`, newest first, 100 a page),
 * and for a thread started from a message, that starter message in the parent channel. Each author
 * is named as the server shows them (their nickname, `GET /guilds/{id}/members/{user}`, which needs
 * no privileged intent; else their global or user name); mentions in the text become names. Without
 * the Message Content intent others' messages arrive without text: the core skips them (empty).
 */
import type { Message, ThreadChannel } from 'discord.js';
import type { ThreadMessage } from '../../core/types.ts';
import { readThread, type ThreadWhere } from '../../turns/read-thread.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';

export function readDiscordThread(
  thread: ThreadChannel,
  where: ThreadWhere,
  botId: string,
  limit: number,
): Promise<ThreadMessage[]> {
  // A thread reached through REST alone may not know its server here: names stay global then.
  const members = (thread.guild as ThreadChannel['guild'] | undefined)?.members;
  return readThread<Message>(
    {
      order: 'newest-first',
      pageSize: 100,
      page: async (before, size) => {
        const page = await thread.messages.fetch({
          ...(before ? { before } : {}),
          limit: size,
          cache: false,
        });
        return { messages: [...page.values()].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1)) };
      },
      where,
      refusal: (error) =>
        (error as { status?: unknown }).status === 403
          ? discordErrorMessages.PERMISSION_DENIED.threadUnreadable()
          : undefined,
      idOf: (message) => message.id,
      isOwn: (message) => message.author.id === botId,
      keep: (message) => !message.system || message.content !== '',
      // A thread started from a message has that message's id; the thread's own list does not hold it.
      starter: thread.parentId
        ? {
            id: thread.id,
            fetch: async () =>
              (await thread.fetchStarterMessage({ cache: false }).catch(() => null)) ?? undefined,
          }
        : undefined,
      lookUpName:
        members && (async (user) => (await members.fetch({ user, cache: false })).nickname ?? undefined),
      read: (message) => ({
        // An app's or a webhook's messages have no member to look up.
        person: message.webhookId || message.author.bot ? undefined : message.author.id,
        shown: message.author.globalName ?? message.author.username,
        text: mentionsAsNames(message, botId, '@ragent'),
        at: new Date(message.createdTimestamp),
      }),
    },
    limit,
  );
}

/** The text with `<@id>` as `@name` (the bot as `botAs`); roles by name where known. */
export function mentionsAsNames(message: Message, botId: string, botAs: string): string {
  return message.content
    .replace(/<@!?(\d+)>/g, (_all, id: string) =>
      id === botId ? botAs : `@${message.mentions.users.get(id)?.username ?? 'someone'}`,
    )
    .replace(/<@&(\d+)>/g, (_all, id: string) => `@${message.mentions.roles.get(id)?.name ?? 'role'}`)
    .trim();
}

/**
 * Discord's messages, parsed once into the runner's `IncomingMessage`. A mention in a server channel
 * starts a thread from that message and answers there; in a thread the message is answered in place.
 * Without the Message Content intent Discord only shows the bot messages that mention it or reply to
 * it (with the ping on): the others arrive without text (`textHidden`). Whether a message is a turn is
 * the runner's decision (`turns/decide-turn.ts`); each message is handled at most once, across restarts too.
 */
import type { Message } from 'discord.js';
import type { IncomingMessage } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { incomingMessage } from '../../turns/incoming-message.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope } from './discord-scopes.ts';
import { forumPostText } from './forum-post.ts';
import { discordIngestFrom, messageAttachmentFiles } from './message-files.ts';
import { type AnswerThread, directMessageThread, guildMessageThread } from './message-thread.ts';
import { mentionsAsNames } from './read-discord-thread.ts';

export async function handleMessage(context: DiscordContext, message: Message): Promise<void> {
  const botId = message.client.user?.id;
  if (!botId) return;
  const incoming = parseMessage(context, message, botId);
  if (incoming) await context.turns.receive(incoming);
}

function parseMessage(context: DiscordContext, message: Message, botId: string): IncomingMessage | undefined {
  const { messageContentIntent } = context.services.config.discord;
  const mentionsBot = message.mentions.users.has(botId);
  const repliesToBot =
    message.mentions.repliedUser?.id === botId ||
    (message.reference?.messageId !== undefined &&
      message.channel.messages.cache.get(message.reference.messageId)?.author.id === botId);
  const guildId = message.guildId;
  // A server message is answered in its thread (one started from it when it has none); a DM in place.
  let thread: AnswerThread;
  if (message.inGuild()) thread = guildMessageThread(context, message, message.channel, message.guildId);
  else if (message.channel.isDMBased() && message.channel.isSendable())
    thread = directMessageThread(context, message.channel, message.id);
  else return undefined;
  const { setChannel } = thread;
  // A new forum post is one question (title, tags, first message), answered inside the post.
  const postText = message.inGuild() ? forumPostText(message, questionText(message, botId)) : undefined;
  const text = postText ?? questionText(message, botId);
  const inThread = message.inGuild() && message.channel.isThread();
  return incomingMessage({
    key: encodeId('discord', ['message', message.id]),
    reference: `message ${message.id}`,
    logFields: { messageId: message.id },
    workspace: guildId ?? '',
    channel: message.channelId,
    answeredIn: thread,
    // Snowflakes grow with time: the thread's order.
    position: message.id,
    author: message.author.id,
    text,
    mentionsBot,
    mentionsOthers:
      [...message.mentions.users.keys()].some((id) => id !== botId) ||
      message.mentions.roles.size > 0 ||
      message.mentions.everyone,
    repliesToBot,
    isDirectMessage: !message.inGuild(),
    inThread: inThread && postText === undefined,
    fromBot:
      message.author.bot || message.system || message.webhookId !== null || message.author.id === botId,
    // Edits arrive as their own gateway event, which the bot does not listen to.
    textHidden: !messageContentIntent && message.inGuild() && !mentionsBot,
    // A top-level message or a new forum post starts a conversation: its channel (a post's forum) may auto-answer it.
    autoAnswerChannel:
      guildId && (!inThread || postText !== undefined) ? channelScope(guildId, setChannel) : undefined,
    notice: async (content) => {
      if (message.channel.isSendable()) await message.reply({ content, allowedMentions: noMentions });
    },
    attachments: messageAttachmentFiles(context, message),
    // Ingest from a message only in a server (documents belong to one); files with a question anywhere.
    ...(message.inGuild() ? { ingestFrom: discordIngestFrom(context, message, setChannel) } : {}),
  });
}

/** The question without the bot's mention; other mentions become readable names. */
export const questionText = (message: Message, botId: string) => mentionsAsNames(message, botId, '');

/**
 * Discord's messages, parsed once into the runner's `IncomingMessage`. A mention in a server channel
 * starts a thread from that message and answers there; in a thread the message is answered in place.
 * Without the Message Content intent Discord only shows the bot messages that mention it or reply to
 * it (with the ping on): the others arrive without text (`textHidden`). Whether a message is a turn is
 * the runner's decision (`turns/decide-turn.ts`); each message is handled at most once, across restarts too.
 */
import {
  type Message,
  type SendableChannels,
  ThreadAutoArchiveDuration,
  type ThreadChannel,
} from 'discord.js';
import type { IncomingMessage } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { RagentError } from '../../errors.ts';
import { incomingMessage } from '../../turns/incoming-message.ts';
import { threadTitle } from '../../turns/thread-title.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import {
  type ConversationPlace,
  channelScope,
  guildChannelScopes,
  placeInDirectMessages,
  placeInGuild,
  setChannelOf,
} from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';
import { forumPostText } from './forum-post.ts';
import { discordIngestFrom, messageAttachmentFiles } from './message-files.ts';
import { mentionsAsNames, readDiscordThread } from './read-discord-thread.ts';

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
  let place: ConversationPlace;
  // The channel the answer goes to when it exists already (a thread, a DM); else a thread is started.
  let existing: SendableChannels | undefined;
  // The channel whose set a server conversation searches (a thread's: its parent's).
  let setChannel = message.channelId;
  if (!message.inGuild()) {
    if (!message.channel.isDMBased() || !message.channel.isSendable()) return undefined;
    place = placeInDirectMessages(message.channelId);
    existing = message.channel;
  } else if (message.channel.isThread()) {
    setChannel = setChannelOf(message.channel);
    place = placeInGuild(message.guildId, message.channel.id, setChannel);
    existing = message.channel;
  } else {
    place = placeInGuild(message.guildId, message.id, message.channelId);
  }
  // A new forum post is one question (title, tags, first message), answered inside the post.
  const postText = message.inGuild() ? forumPostText(message, questionText(message, botId)) : undefined;
  const text = postText ?? questionText(message, botId);
  // Scopes with the channel's links, read when the turn starts (a DM: shared only, as placed).
  const placed = async (base: ConversationPlace) => ({
    ...base,
    user: message.author.id,
    scopes: guildId
      ? await guildChannelScopes(context.services.coordination, context.logger, guildId, setChannel)
      : base.scopes,
  });
  const inThread = message.inGuild() && message.channel.isThread();
  return incomingMessage({
    key: encodeId('discord', ['message', message.id]),
    reference: `message ${message.id}`,
    logFields: { messageId: message.id },
    workspace: guildId ?? '',
    channel: message.channelId,
    // Snowflakes grow with time: the thread's order.
    thread: { threadId: place.threadId, position: message.id },
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
    // Until the status message exists, the thread is told with a reply to the question itself.
    location: { channelId: message.channelId, replyTo: message.id },
    notice: async (content) => {
      if ((existing ?? message.channel).isSendable())
        await message.reply({ content, allowedMentions: noMentions });
    },
    attachments: messageAttachmentFiles(context, message),
    // Ingest from a message only in a server (documents belong to one); files with a question anywhere.
    ...(message.inGuild() ? { ingestFrom: discordIngestFrom(context, message, setChannel) } : {}),
    ...(inThread
      ? {
          readThread: (limit: number) =>
            readDiscordThread(message.channel as ThreadChannel, { before: message.id }, botId, limit),
        }
      : {}),
    open: async () => {
      if (existing)
        return { surface: await openAnswerSurface(context.surfaces, existing), place: await placed(place) };
      const thread = await message
        .startThread({
          name: threadName(text, message.author.username),
          autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
        })
        .catch((error: unknown) => {
          throw new RagentError(
            'PERMISSION_DENIED',
            discordErrorMessages.PERMISSION_DENIED.threadNotStarted(),
            {
              cause: error,
            },
          );
        });
      return {
        surface: await openAnswerSurface(context.surfaces, thread),
        place: await placed(placeInGuild(guildId ?? '', thread.id, setChannel)),
      };
    },
  });
}

/** The question without the bot's mention; other mentions become readable names. */
export const questionText = (message: Message, botId: string) => mentionsAsNames(message, botId, '');

/** Discord allows thread names of 100 characters. */
export const threadName = (text: string, author: string) => threadTitle(text, author, 100);

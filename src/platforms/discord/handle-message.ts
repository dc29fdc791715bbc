/**
 * Messages: a mention in a server channel starts a thread from that message and answers there; in a
 * thread the bot converses in, replies continue the conversation (and answer a pending clarifying
 * question). Without the Message Content intent Discord only shows the bot messages that mention it
 * or reply to it (with the ping on), so those are the ones it answers. DMs are always for the bot.
 * Bots (including itself) are ignored; each message is handled at most once, across restarts too.
 */
import { type Message, type SendableChannels, ThreadAutoArchiveDuration } from 'discord.js';
import { RagentError } from '../../errors.ts';
import {
  emptyQuestionText,
  restartingText,
  threadFailedText,
  unreadableReplyText,
} from '../../turns/messages-en.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import {
  type ConversationPlace,
  guildChannelScopes,
  placeInDirectMessages,
  placeInGuild,
  setChannelOf,
} from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';

const threadNameLimit = 100;

export async function handleMessage(context: DiscordContext, message: Message): Promise<void> {
  if (message.author.bot || message.system || message.webhookId) return;
  const botId = message.client.user?.id;
  if (!botId) return;
  const { messageContentIntent } = context.services.config.discord;
  const mentioned = message.mentions.users.has(botId);
  const repliesToBot =
    message.mentions.repliedUser?.id === botId ||
    (message.reference?.messageId !== undefined &&
      message.channel.messages.cache.get(message.reference.messageId)?.author.id === botId);

  let place: ConversationPlace;
  let channel: SendableChannels | undefined;
  // The channel whose set a server conversation searches (a thread's: its parent's).
  let setChannel = message.channelId;
  if (!message.inGuild()) {
    if (!message.channel.isDMBased() || !message.channel.isSendable()) return;
    place = placeInDirectMessages(message.channelId);
    channel = message.channel;
  } else if (message.channel.isThread()) {
    setChannel = setChannelOf(message.channel);
    place = placeInGuild(message.guildId, message.channel.id, setChannel);
    const addressed =
      mentioned || repliesToBot || (messageContentIntent && (await hasThread(context, place)));
    if (!addressed) return;
    channel = message.channel;
  } else {
    if (!(mentioned || repliesToBot)) return;
    place = placeInGuild(message.guildId, message.id, message.channelId);
  }
  const eventKey = `discord:message:${message.id}`;
  const say = async (content: string) => {
    // Said once, however often the message is delivered.
    if (!(await context.turns.claim(eventKey))) return;
    if ((channel ?? message.channel).isSendable())
      await message.reply({ content, allowedMentions: noMentions });
  };
  if (context.isStopping() || context.turns.stopping) {
    await say(restartingText);
    return;
  }
  const text = questionText(message, botId);
  if (!text) {
    // Without the intent, a reply that does not ping the bot arrives without its text.
    if (mentioned || !message.inGuild()) await say(emptyQuestionText);
    else if (!messageContentIntent) await say(unreadableReplyText);
    return;
  }

  const guildId = message.guildId;
  const existing = channel;
  const { coordination } = context.services;
  // Scopes with the channel's links, read when the turn starts (a DM: shared only, as placed).
  const scopesOf = async (base: ConversationPlace) =>
    guildId ? guildChannelScopes(coordination, context.logger, guildId, setChannel) : base.scopes;
  context.turns.answer({
    key: eventKey,
    text,
    reference: `message ${message.id}`,
    logFields: { messageId: message.id },
    // Until the status message exists, the thread is told with a reply to the question itself.
    location: { channelId: message.channelId, replyTo: message.id },
    // Snowflakes grow with time: the thread's order.
    thread: { threadId: place.threadId, position: message.id },
    // Claimed by the runner, with the turn record in one write.
    claim: true,
    open: async () => {
      if (existing) {
        return {
          surface: await openAnswerSurface(context.surfaces, existing),
          place: { ...place, scopes: await scopesOf(place), user: message.author.id },
        };
      }
      let thread: SendableChannels;
      try {
        thread = await message.startThread({
          name: threadName(text, message.author.username),
          autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
        });
      } catch (error) {
        throw new RagentError('PERMISSION_DENIED', threadFailedText, { cause: error });
      }
      const threadPlace = placeInGuild(guildId ?? '', thread.id, setChannel);
      return {
        surface: await openAnswerSurface(context.surfaces, thread),
        place: { ...threadPlace, scopes: await scopesOf(threadPlace), user: message.author.id },
      };
    },
  });
}

async function hasThread(context: DiscordContext, place: ConversationPlace): Promise<boolean> {
  try {
    return await context.services.conversations.hasThread(place.threadId);
  } catch (error) {
    context.logger.warn({ err: error, threadId: place.threadId }, 'could not look up the thread');
    return false;
  }
}

/** The question without the bot's mention; other mentions become readable names. */
export function questionText(message: Message, botId: string): string {
  return message.content
    .replace(new RegExp(`<@!?${botId}>`, 'g'), '')
    .replace(/<@!?(\d+)>/g, (_all, id: string) => `@${message.mentions.users.get(id)?.username ?? 'someone'}`)
    .replace(/<@&(\d+)>/g, (_all, id: string) => `@${message.mentions.roles.get(id)?.name ?? 'role'}`)
    .trim();
}

export function threadName(text: string, author: string): string {
  const firstLine =
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/[`*_~|>#]/g, '')
      .trim() ?? '';
  const name = firstLine || `Question from ${author}`;
  // Cut by code point: never half an emoji (a lone surrogate) in the name.
  const points = Array.from(name);
  return points.length <= threadNameLimit
    ? name
    : `${points
        .slice(0, threadNameLimit - 1)
        .join('')
        .trimEnd()}…`;
}

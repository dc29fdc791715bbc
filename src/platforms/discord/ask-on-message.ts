/**
 * "Ask ragent" (a message context-menu command): the person who chose it asks ragent that message.
 * Acknowledged at once, only to them ("answering in the thread"); the answer goes to the thread
 * started from the message (or to the message's thread when it is in one, or to the thread someone
 * already started from it), through the same runner as a mention: scopes from the channel, the
 * asker as the turn's user, the thread read first when ragent is not in it yet. Chosen twice, the
 * message is answered once (one key per message).
 */
import {
  type Client,
  type MessageContextMenuCommandInteraction,
  Routes,
  type SendableChannels,
  ThreadAutoArchiveDuration,
  type ThreadChannel,
} from 'discord.js';
import { encodeId } from '../../core/ids.ts';
import { RagentError } from '../../errors.ts';
import { askInThreadText, guildOnlyText } from '../../turns/messages-en.ts';
import { replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import { guildChannelScopes, placeInGuild, setChannelOf } from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';
import { questionText, threadName } from './handle-message.ts';
import { readDiscordThread } from './read-discord-thread.ts';

/** Discord's answer when a message already started a thread. */
const threadAlreadyCreated = 160004;

export async function runAskOnMessage(
  context: DiscordContext,
  interaction: MessageContextMenuCommandInteraction,
): Promise<void> {
  if (!interaction.inGuild()) {
    await replyPrivately(interaction, guildOnlyText);
    return;
  }
  // Acknowledged before any other I/O: Discord allows 3 seconds.
  await replyPrivately(interaction, askInThreadText);
  const { client, guildId } = interaction;
  const target = interaction.targetMessage;
  const botId = client.user.id;
  const channel = await client.channels.fetch(interaction.channelId, { allowUnknownGuild: true });
  if (!channel) throw new Error(`channel ${interaction.channelId} is gone`);
  const inThread = channel.isThread();
  const setChannel = inThread ? setChannelOf(channel) : channel.id;
  // A message outside a thread is answered in the thread started from it, which takes its id.
  const place = placeInGuild(guildId, inThread ? channel.id : target.id, setChannel);
  let thread: ThreadChannel | undefined = inThread ? channel : undefined;
  const text = questionText(target, botId);
  context.turns.answer({
    key: encodeId('discord', ['ask', target.id]),
    text,
    reference: `ask ${target.id}`,
    logFields: { messageId: target.id, interaction: interaction.id },
    location: { channelId: target.channelId, replyTo: target.id },
    // Snowflakes grow with time: the asking comes after every message before it.
    thread: { threadId: place.threadId, position: interaction.id },
    claim: true,
    open: async () => {
      thread ??= await threadFromMessage(
        client,
        target.channelId,
        target.id,
        threadName(text, target.author.username),
      );
      return {
        surface: await openAnswerSurface(context.surfaces, thread as SendableChannels),
        place: {
          ...place,
          user: interaction.user.id,
          scopes: await guildChannelScopes(
            context.services.coordination,
            context.logger,
            guildId,
            setChannel,
          ),
        },
      };
    },
    readThread: async (limit) => {
      if (!thread) return [];
      return inThread
        ? readDiscordThread(thread, { before: target.id }, botId, limit)
        : readDiscordThread(thread, { exclude: target.id, skipOwn: true }, botId, limit);
    },
  });
}

/** The thread started from the message: started now, or the one people already started from it. */
async function threadFromMessage(
  client: Client,
  channelId: string,
  messageId: string,
  name: string,
): Promise<ThreadChannel> {
  try {
    await client.rest.post(Routes.threads(channelId, messageId), {
      body: { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay },
    });
  } catch (error) {
    if ((error as { code?: unknown }).code !== threadAlreadyCreated)
      throw new RagentError('PERMISSION_DENIED', discordErrorMessages.PERMISSION_DENIED.threadNotStarted(), {
        cause: error,
      });
  }
  const thread = await client.channels.fetch(messageId, { allowUnknownGuild: true });
  if (!thread?.isThread())
    throw new RagentError('PERMISSION_DENIED', discordErrorMessages.PERMISSION_DENIED.threadNotStarted());
  return thread;
}

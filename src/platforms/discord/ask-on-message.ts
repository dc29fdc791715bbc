/**
 * "Ask ragent", Discord's message context-menu command: the payload read into a neutral request
 * (`turns/ask-on-message.ts` decides the rest), answered privately at once (Discord allows 3 s), and
 * the thread to answer in: the message's own thread, else the one started from it (now, or earlier by
 * someone).
 */
import {
  type Message,
  type MessageContextMenuCommandInteraction,
  Routes,
  type SendableChannels,
  ThreadAutoArchiveDuration,
  type ThreadChannel,
} from 'discord.js';
import { RagentError } from '../../errors.ts';
import { askOnMessage } from '../../turns/ask-on-message.ts';
import { guildOnlyText } from '../../turns/messages-en.ts';
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
  if (!interaction.inGuild()) return replyPrivately(interaction, guildOnlyText);
  const { client, guildId } = interaction;
  const target = interaction.targetMessage;
  const botId = client.user.id;
  const ask = {
    platform: 'discord',
    workspace: guildId,
    channel: target.channelId,
    messageId: target.id,
    text: questionText(target, botId),
    fromBot: target.author.id === botId,
    asker: interaction.user.id,
    // Snowflakes grow with time: the asking comes after every message before it.
    position: interaction.id,
  };
  await askOnMessage(context.turns, ask, {
    // Called once: the refusal, or where the answer goes.
    tell: (content) => replyPrivately(interaction, content),
    confirms: true,
    thread: async () => {
      const channel = await client.channels.fetch(interaction.channelId, { allowUnknownGuild: true });
      if (!channel) throw new Error(`channel ${interaction.channelId} is gone`);
      const inThread = channel.isThread();
      const setChannel = inThread ? setChannelOf(channel) : channel.id;
      // A message outside a thread is answered in the thread started from it, which takes its id.
      const place = placeInGuild(guildId, inThread ? channel.id : target.id, setChannel);
      let thread: ThreadChannel | undefined = inThread ? channel : undefined;
      return {
        threadId: place.threadId,
        startsThread: !inThread,
        location: { channelId: target.channelId, replyTo: target.id },
        scopes: () => guildChannelScopes(context.services.coordination, context.logger, guildId, setChannel),
        open: async (question) => {
          thread ??= await threadFromMessage(target, threadName(question, target.author.username));
          return openAnswerSurface(context.surfaces, thread as SendableChannels);
        },
        read: async (range, limit) => (thread ? readDiscordThread(thread, range, botId, limit) : []),
      };
    },
  });
}

/** The thread started from the message: started now, or the one people already started from it. */
async function threadFromMessage(target: Message, name: string): Promise<ThreadChannel> {
  const refused = (cause?: unknown) =>
    new RagentError('PERMISSION_DENIED', discordErrorMessages.PERMISSION_DENIED.threadNotStarted(), {
      cause,
    });
  const body = { name, auto_archive_duration: ThreadAutoArchiveDuration.OneDay };
  await target.client.rest.post(Routes.threads(target.channelId, target.id), { body }).catch((error) => {
    if ((error as { code?: unknown }).code !== threadAlreadyCreated) throw refused(error);
  });
  const thread = await target.client.channels.fetch(target.id, { allowUnknownGuild: true });
  if (!thread?.isThread()) throw refused();
  return thread;
}

/**
 * "Ask ragent", Discord's message context-menu command: the payload read into a neutral request
 * (`turns/ask-on-message.ts` decides the rest), answered privately at once (Discord allows 3 s), and
 * the thread to answer in: the message's own thread, else the one started from it (now, or earlier by
 * someone).
 */
import type { MessageContextMenuCommandInteraction } from 'discord.js';
import { askOnMessage } from '../../turns/ask-on-message.ts';
import { guildOnlyText } from '../../turns/messages-en.ts';
import { replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { sendableChannel } from './discord-surfaces.ts';
import { questionText } from './handle-message.ts';
import { guildMessageThread } from './message-thread.ts';

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
    // A channel gone, or one ragent may not post in, is told to the asker in place of the confirmation.
    thread: async () =>
      guildMessageThread(context, target, await sendableChannel(client, interaction.channelId), guildId),
  });
}

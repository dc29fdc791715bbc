/**
 * Routes slash commands and button clicks to their handlers; every interaction gets an answer, and
 * every handler acknowledges it (reply or defer) before any I/O: Discord allows 3 seconds.
 */
import { type Interaction, MessageFlags } from 'discord.js';
import { restartingText } from '../../turns/messages-en.ts';
import { handleAnswerButton, handleReasonModal } from './answer-actions.ts';
import { runAskOnMessage } from './ask-on-message.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import { runDiscordCommand } from './discord-commands.ts';
import type { DiscordContext } from './discord-context.ts';
import { errorText } from './discord-text.ts';
import { handleShareButton, isShareButton } from './private-ask.ts';

export async function handleInteraction(context: DiscordContext, interaction: Interaction): Promise<void> {
  if (
    !interaction.isChatInputCommand() &&
    !interaction.isButton() &&
    !interaction.isModalSubmit() &&
    !interaction.isMessageContextMenuCommand()
  )
    return;
  // No claim in the store first (that is I/O before the acknowledgement): Discord accepts one
  // acknowledgement per interaction, so a duplicate delivery fails at its reply or defer and does nothing.
  if (context.isStopping() || context.turns.stopping) {
    await replyPrivately(interaction, restartingText);
    return;
  }
  try {
    if (interaction.isModalSubmit()) await handleReasonModal(context, interaction);
    else if (interaction.isButton()) {
      if (isShareButton(interaction.customId)) await handleShareButton(context, interaction);
      else await handleAnswerButton(context, interaction);
    } else if (interaction.isMessageContextMenuCommand()) await runAskOnMessage(context, interaction);
    else await runDiscordCommand(context, interaction);
  } catch (error) {
    context.logger.warn({ err: error, interaction: interaction.id }, 'discord interaction failed');
    const reply = { content: errorText(error), allowedMentions: noMentions };
    if (interaction.deferred || interaction.replied) await interaction.editReply(reply).catch(() => {});
    else await interaction.reply({ ...reply, flags: MessageFlags.Ephemeral }).catch(() => {});
  }
}

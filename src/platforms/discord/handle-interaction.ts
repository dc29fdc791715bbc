/**
 * Routes slash commands and button clicks to their handlers; every interaction gets an answer, and
 * every handler acknowledges it (reply or defer) before any I/O: Discord allows 3 seconds.
 */
import { type ChatInputCommandInteraction, type Interaction, MessageFlags } from 'discord.js';
import { findCommand } from '../../commands/command-table.ts';
import { runsCommand } from '../../commands/run-command.ts';
import { guildOnlyText, restartingText, unknownCommandText } from '../../turns/messages-en.ts';
import { handleAnswerButton, handleReasonModal } from './answer-actions.ts';
import { runAskOnMessage } from './ask-on-message.ts';
import { commandName, discordCommands } from './command-definitions.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import { runDiscordCommand } from './discord-commands.ts';
import type { DiscordContext } from './discord-context.ts';
import { errorText } from './discord-text.ts';
import { runIngestCommand } from './ingest-command.ts';
import { handleShareButton, isShareButton, runAskCommand } from './private-ask.ts';

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
    else await routeCommand(context, interaction);
  } catch (error) {
    context.logger.warn({ err: error, interaction: interaction.id }, 'discord interaction failed');
    const reply = { content: errorText(error), allowedMentions: noMentions };
    if (interaction.deferred || interaction.replied) await interaction.editReply(reply).catch(() => {});
    else await interaction.reply({ ...reply, flags: MessageFlags.Ephemeral }).catch(() => {});
  }
}

/** `/ragent <subcommand>` or a command of its own (`/ragent-report`), by the command table. */
async function routeCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
): Promise<void> {
  const name =
    interaction.commandName === commandName
      ? interaction.options.getSubcommand()
      : interaction.commandName.replace(`${commandName}-`, '');
  const command = findCommand(discordCommands, name);
  if (!command) {
    await replyPrivately(interaction, unknownCommandText('ragent discord register'));
    return;
  }
  if (command.name === 'help') await runDiscordCommand(context, interaction, command);
  // Documents belong to a server: in a DM only help answers.
  else if (!interaction.inGuild()) await replyPrivately(interaction, guildOnlyText);
  else if (command.name === 'ingest') await runIngestCommand(context, interaction);
  else if (command.name === 'ask') await runAskCommand(context, interaction);
  else if (runsCommand(command.name)) await runDiscordCommand(context, interaction, command);
  else await replyPrivately(interaction, unknownCommandText('ragent discord register'));
}

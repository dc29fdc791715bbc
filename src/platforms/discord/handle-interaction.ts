/**
 * Routes slash commands and button clicks to their handlers; every interaction gets an answer, and
 * every handler acknowledges it (reply or defer) before any I/O: Discord allows 3 seconds.
 */
import { type ChatInputCommandInteraction, type Interaction, MessageFlags } from 'discord.js';
import { guildOnlyText, restartingText, unknownCommandText } from '../../turns/messages-en.ts';
import { handleAnswerButton, handleReasonModal } from './answer-actions.ts';
import { runAskOnMessage } from './ask-on-message.ts';
import { runAutoAnswerCommand } from './auto-answer-command.ts';
import { commandName, reportCommandName, subcommands } from './command-definitions.ts';
import { noMentions, replyPrivately } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { errorText } from './discord-text.ts';
import { handleFeedbackButton } from './feedback-button.ts';
import { runHandOffCommand } from './handoff-command.ts';
import { runIngestCommand } from './ingest-command.ts';
import {
  runDocsCommand,
  runForgetCommand,
  runHelpCommand,
  runMoveCommand,
  runUseCommand,
} from './library-commands.ts';
import { handleShareButton, isShareButton, runAskCommand } from './private-ask.ts';
import { runReportCommand } from './report-command.ts';

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
      else
        (await handleAnswerButton(context, interaction)) ||
          (await handleFeedbackButton(context, interaction));
    } else if (interaction.isMessageContextMenuCommand()) await runAskOnMessage(context, interaction);
    else if (interaction.commandName === commandName) await runCommand(context, interaction);
    else if (interaction.commandName === reportCommandName) {
      if (interaction.inGuild()) await runReportCommand(context, interaction);
      else await replyPrivately(interaction, guildOnlyText);
    }
  } catch (error) {
    context.logger.warn({ err: error, interaction: interaction.id }, 'discord interaction failed');
    const reply = { content: errorText(error), allowedMentions: noMentions };
    if (interaction.deferred || interaction.replied) await interaction.editReply(reply).catch(() => {});
    else await interaction.reply({ ...reply, flags: MessageFlags.Ephemeral }).catch(() => {});
  }
}

async function runCommand(context: DiscordContext, interaction: ChatInputCommandInteraction): Promise<void> {
  const subcommand = interaction.options.getSubcommand();
  if (subcommand === subcommands.help) return runHelpCommand(context, interaction);
  if (!interaction.inGuild()) {
    await replyPrivately(interaction, guildOnlyText);
    return;
  }
  switch (subcommand) {
    case subcommands.ingest:
      return runIngestCommand(context, interaction);
    case subcommands.docs:
      return runDocsCommand(context, interaction);
    case subcommands.forget:
      return runForgetCommand(context, interaction);
    case subcommands.move:
      return runMoveCommand(context, interaction);
    case subcommands.handoff:
      return runHandOffCommand(context, interaction);
    case subcommands.use:
    case subcommands.unuse:
      return runUseCommand(context, interaction, subcommand === subcommands.use);
    case subcommands.autoanswer:
      return runAutoAnswerCommand(context, interaction);
    case subcommands.ask:
      return runAskCommand(context, interaction);
    default:
      await replyPrivately(interaction, unknownCommandText('ragent discord register'));
  }
}

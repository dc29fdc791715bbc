/**
 * `/ragent docs`, `/ragent forget name:` and `/ragent help` (the logic is shared: see
 * turns/document-commands). Each replies or defers before any I/O.
 */
import { type ChatInputCommandInteraction, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { sharedScope } from '../../core/types.ts';
import { forgetDocument, listDocuments } from '../../turns/document-commands.ts';
import { forgetNameOption } from './command-definitions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { guildScope } from './discord-scopes.ts';
import { documentListText, forgetDeniedText, forgottenText, helpText } from './discord-text.ts';
import { messageLimit } from './render-answer.ts';

export async function runDocsCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const scope = guildScope(interaction.guildId);
  const documents = await listDocuments(context.services.ingestion, [scope, sharedScope]);
  await interaction.editReply({
    content: documentListText(documents, scope, messageLimit),
    allowedMentions: noMentions,
  });
}

export async function runForgetCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  // First: reading the index may take longer than Discord's 3 seconds.
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const outcome = await forgetDocument(context.services.ingestion, {
    idOrName: interaction.options.getString(forgetNameOption, true),
    scope: guildScope(interaction.guildId),
    uploader: `discord:${interaction.user.id}`,
    isAdmin: async () => interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    logger: context.logger,
  });
  await interaction.editReply({
    content: outcome.kind === 'denied' ? forgetDeniedText(outcome.document) : forgottenText(outcome.document),
    allowedMentions: noMentions,
  });
}

export async function runHelpCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction,
): Promise<void> {
  await interaction.reply({
    content: helpText(context.services.config.discord.messageContentIntent),
    flags: MessageFlags.Ephemeral,
    allowedMentions: noMentions,
  });
}

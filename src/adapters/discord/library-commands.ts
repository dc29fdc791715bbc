/** `/ragent docs`, `/ragent forget name:` and `/ragent help`. */
import { type ChatInputCommandInteraction, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { sharedScope } from '../../core/types.ts';
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
  const documents = await context.services.ingestion.listDocuments([scope, sharedScope]);
  await interaction.editReply({
    content: documentListText(documents, scope, messageLimit),
    allowedMentions: noMentions,
  });
}

export async function runForgetCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  const scope = guildScope(interaction.guildId);
  const idOrName = interaction.options.getString(forgetNameOption, true);
  const { ingestion } = context.services;
  const document = await ingestion.findDocument({ idOrName, scope });
  const isUploader = document.uploader === `discord:${interaction.user.id}`;
  const managesServer = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
  if (!isUploader && !managesServer) {
    await interaction.reply({
      content: forgetDeniedText(document),
      flags: MessageFlags.Ephemeral,
      allowedMentions: noMentions,
    });
    return;
  }
  await interaction.deferReply();
  const removed = await ingestion.removeDocument({ idOrName: document.id, scope });
  context.logger.info({ guild: interaction.guildId, document: removed.id }, 'discord document removed');
  await interaction.editReply({ content: forgottenText(removed), allowedMentions: noMentions });
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

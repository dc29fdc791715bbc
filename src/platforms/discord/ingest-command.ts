/**
 * `/ragent ingest file:<file> | url:<address> [for:channel|server]`: deferred at once (Discord allows
 * 3 s; the defer is the first call), then the core's chat ingest job, its progress and result in the
 * command's reply (a thread's set is its parent channel's).
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { encodeId } from '../../core/ids.ts';
import { chatIngestJob, showingFirstStatus } from '../../turns/chat-ingest-job.ts';
import { nothingToIngestText } from '../../turns/messages-en.ts';
import { webAddressesIn } from '../../turns/web-page-file.ts';
import { ingestFileOption, ingestTargetOption, ingestUrlOption } from './command-definitions.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMessageLink } from './discord-ids.ts';
import { channelScope, guildScope, interactionSetChannel } from './discord-scopes.ts';
import { interactionSurface } from './discord-surfaces.ts';
import { discordTerms } from './discord-text.ts';
import { attachmentFile } from './message-files.ts';

export async function runIngestCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply();
  const attachment = interaction.options.getAttachment(ingestFileOption, false);
  const urlText = interaction.options.getString(ingestUrlOption, false) ?? '';
  const urls = webAddressesIn(urlText);
  if (!attachment && urls.length === 0) {
    await interaction.editReply(nothingToIngestText(urlText, discordTerms));
    return;
  }
  const surface = interactionSurface(context.surfaces, interaction);
  const { guildId } = interaction;
  // The sources of answers link to the command's reply (the attachment's CDN address expires).
  const replyLink = async () => {
    const reply = await interaction.fetchReply().catch(() => undefined);
    return reply && discordMessageLink(guildId, interaction.channelId, reply.id);
  };
  context.turns.ingest(
    chatIngestJob({
      key: encodeId('discord', ['ingest', interaction.id]),
      reference: `interaction ${interaction.id}`,
      uploader: encodeId('discord', [interaction.user.id]),
      startedAt: interaction.createdTimestamp,
      sets: {
        channel: channelScope(guildId, await interactionSetChannel(interaction.client, interaction)),
        place: guildScope(guildId),
      },
      asked: { picked: interaction.options.getString(ingestTargetOption) },
      defaultSet: context.services.config.ingest.defaultSet,
      files: attachment ? [attachmentFile(context, attachment, replyLink)] : [],
      pages: { web: context.services.web, urls },
      open: showingFirstStatus(() => surface),
    }),
  );
}

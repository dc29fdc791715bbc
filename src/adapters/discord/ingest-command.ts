/**
 * `/ragent ingest file:<PDF>`: acknowledged at once (Discord allows 3 s), then the PDF is downloaded
 * from Discord's CDN and ingested into this server's scope, the reply showing progress and the result.
 * From the download until the result is shown, the ingest is recorded in `bot.sqlite`, so that after
 * a crash the reply says the file was not added (see ask-again-notice).
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { recordTurn } from '../shared/turns-in-flight.ts';
import { ingestFileOption } from './command-definitions.ts';
import { noMentions } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { guildScope } from './discord-scopes.ts';
import {
  downloadingText,
  errorText,
  ingestProgressText,
  ingestReportText,
  notPdfAttachmentText,
} from './discord-text.ts';
import { downloadAttachment, tooLarge } from './download-attachment.ts';
import { throttledEdits } from './throttled-edits.ts';

export async function runIngestCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply();
  const { config, ingestion } = context.services;
  const attachment = interaction.options.getAttachment(ingestFileOption, true);
  const name = attachment.name;
  const edit = (content: string) => interaction.editReply({ content, allowedMentions: noMentions });
  const looksLikePdf = attachment.contentType?.startsWith('application/pdf') || /\.pdf$/i.test(name);
  if (!looksLikePdf) {
    await edit(notPdfAttachmentText(name));
    return;
  }
  if (attachment.size > config.ingest.maxFileBytes) {
    await edit(errorText(tooLarge(attachment.size, config.ingest.maxFileBytes)));
    return;
  }
  const record = recordTurn(context.services.botState, {
    key: `discord:ingest:${interaction.id}`,
    platform: 'discord',
    kind: 'ingest',
    location: interruptedIngestLocation(interaction, name),
    startedAt: interaction.createdTimestamp,
  });
  try {
    const edits = throttledEdits(edit, context.progressIntervalMs, (error) =>
      context.logger.warn({ err: error }, 'could not update the ingest reply'),
    );
    let final: string;
    try {
      edits.update(downloadingText(name));
      const bytes = await downloadAttachment(attachment.url, {
        maxBytes: config.ingest.maxFileBytes,
        apiUrl: config.discord.apiUrl,
      });
      const report = await ingestion.ingest(
        { name, bytes, scope: guildScope(interaction.guildId), uploader: `discord:${interaction.user.id}` },
        (progress) => edits.update(ingestProgressText(name, progress)),
      );
      context.logger.info(
        { guild: interaction.guildId, document: report.document.id, status: report.status },
        'discord ingest finished',
      );
      final = ingestReportText(report);
    } catch (error) {
      context.logger.warn({ err: error, guild: interaction.guildId, file: name }, 'discord ingest failed');
      final = errorText(error);
    }
    await edits.close();
    try {
      await edit(final);
    } catch (error) {
      // The reply can no longer be edited (interaction tokens last 15 minutes): post the result instead.
      context.logger.warn({ err: error }, 'could not edit the ingest reply; posting the result');
      const channel = await context.client.channels.fetch(interaction.channelId).catch(() => null);
      if (channel?.isSendable()) await channel.send({ content: final, allowedMentions: noMentions });
    }
  } finally {
    record.end();
  }
}

/** Where the notice for an ingest a crash cut short goes (read by ask-again-notice). */
function interruptedIngestLocation(
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
  file: string,
): Record<string, string> {
  return {
    applicationId: interaction.applicationId,
    interactionToken: interaction.token,
    channelId: interaction.channelId,
    file,
  };
}

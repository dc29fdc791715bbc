/**
 * `/ragent ingest file:<file> | url:<address> [for:channel|server]`: deferred at once (Discord allows 3 s; the defer
 * is the first call), then an ingest job for the turn runner — the file downloads from Discord's CDN
 * into this channel's set (a thread: its parent channel's) or the server's, as picked (default:
 * RAGENT_INGEST_DEFAULT_SET), the reply showing progress and the result (see discord-surfaces). A
 * `url:` page is fetched under the chat's address guard (turns/web-page-file.ts).
 */
import type { Attachment, ChatInputCommandInteraction } from 'discord.js';
import type { IngestFile } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { parseIngestTarget } from '../../turns/ingest-target.ts';
import { webAddressesIn, webPageFile } from '../../turns/web-page-file.ts';
import { ingestFileOption, ingestTargetOption, ingestUrlOption } from './command-definitions.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope, guildScope, interactionSetChannel } from './discord-scopes.ts';
import { interactionSurface } from './discord-surfaces.ts';
import { nothingToIngestText } from './discord-text.ts';
import { downloadAttachment, tooLarge } from './download-attachment.ts';

export async function runIngestCommand(
  context: DiscordContext,
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<void> {
  await interaction.deferReply();
  const { config } = context.services;
  const attachment = interaction.options.getAttachment(ingestFileOption, false);
  const urlText = interaction.options.getString(ingestUrlOption, false) ?? '';
  const pages = webAddressesIn(urlText).map((url) => webPageFile(context.services.web, url));
  if (!attachment && pages.length === 0) {
    await interaction.editReply(nothingToIngestText(urlText));
    return;
  }
  const surface = interactionSurface(context.surfaces, interaction);
  const target = parseIngestTarget(
    interaction.options.getString(ingestTargetOption),
    config.ingest.defaultSet,
  );
  const scope =
    target === 'channel'
      ? channelScope(interaction.guildId, await interactionSetChannel(interaction.client, interaction))
      : guildScope(interaction.guildId);
  // The sources of answers link to the command's reply (the attachment's CDN address expires).
  let replyLink: string | undefined;
  context.turns.ingest({
    key: encodeId('discord', ['ingest', interaction.id]),
    reference: `interaction ${interaction.id}`,
    scope,
    uploader: encodeId('discord', [interaction.user.id]),
    startedAt: interaction.createdTimestamp,
    files: [...(attachment ? [attachmentFile(attachment)] : []), ...pages],
    open: async (first) => {
      await surface.showStatus(first);
      return surface;
    },
  });

  function attachmentFile(attachment: Attachment): IngestFile {
    const { name } = attachment;
    return {
      name,
      link: () => replyLink,
      download: async () => {
        // Any type goes: the ingest tells it from the bytes (the attachment's content type is the uploader's claim).
        if (attachment.size > config.ingest.maxFileBytes) {
          throw tooLarge(attachment.size, config.ingest.maxFileBytes);
        }
        const bytes = await downloadAttachment(attachment.url, {
          maxBytes: config.ingest.maxFileBytes,
          apiUrl: config.discord.apiUrl,
        });
        replyLink = await replyMessageLink(interaction);
        return bytes;
      },
    };
  }
}

/** `https://discord.com/channels/<guild>/<channel>/<message>` of the command's reply, or undefined if it cannot be read. */
async function replyMessageLink(
  interaction: ChatInputCommandInteraction<'cached' | 'raw'>,
): Promise<string | undefined> {
  try {
    const reply = await interaction.fetchReply();
    return `https://discord.com/channels/${interaction.guildId}/${interaction.channelId}/${reply.id}`;
  } catch {
    return undefined;
  }
}

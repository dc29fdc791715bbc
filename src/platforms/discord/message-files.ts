/**
 * Files attached to a Discord message that mentions the bot: downloaded from Discord's CDN only (no
 * token sent), size checked before and while reading. With "ingest" in the message they go to the
 * channel's set (a thread: its parent channel's) or the server's, as the message says (default
 * RAGENT_INGEST_DEFAULT_SET) — the same job as Slack's file shares, run by the same runner; without
 * it they are read for the question's thread alone (`turns/thread-files.ts`). The sources of answers
 * link to the message the files were attached to (an attachment's CDN address expires).
 */
import type { Message, SendableChannels } from 'discord.js';
import type { IngestFile, IngestJob } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { ingestTargetFromText } from '../../turns/ingest-target.ts';
import type { DiscordContext } from './discord-context.ts';
import { channelScope, guildScope } from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';
import { downloadAttachment, tooLarge } from './download-attachment.ts';

/** The message's attachments as files to download. */
export function messageAttachmentFiles(context: DiscordContext, message: Message): IngestFile[] {
  const { config } = context.services;
  const link = message.guildId
    ? `https://discord.com/channels/${message.guildId}/${message.channelId}/${message.id}`
    : undefined;
  return [...message.attachments.values()].map((attachment) => ({
    name: attachment.name,
    link: () => link,
    download: async () => {
      // Any type goes: the ingest tells it from the bytes (the content type is the uploader's claim).
      if (attachment.size > config.ingest.maxFileBytes) {
        throw tooLarge(attachment.size, config.ingest.maxFileBytes);
      }
      return downloadAttachment(attachment.url, {
        maxBytes: config.ingest.maxFileBytes,
        apiUrl: config.discord.apiUrl,
      });
    },
  }));
}

/**
 * "@ragent ingest" with attachments, in a server: the files into the channel's set (`setChannel`) or
 * the server's; the progress is a reply in the message's channel.
 */
export function messageIngestJob(
  context: DiscordContext,
  message: Message<true>,
  setChannel: string,
  text: string,
): IngestJob {
  const target = ingestTargetFromText(text, context.services.config.ingest.defaultSet);
  return {
    key: encodeId('discord', ['ingest', message.id]),
    reference: `message ${message.id}`,
    scope: target === 'channel' ? channelScope(message.guildId, setChannel) : guildScope(message.guildId),
    uploader: encodeId('discord', [message.author.id]),
    startedAt: message.createdTimestamp,
    files: messageAttachmentFiles(context, message),
    open: async (first) => {
      const surface = await openAnswerSurface(context.surfaces, message.channel as SendableChannels);
      await surface.showStatus(first);
      return surface;
    },
  };
}

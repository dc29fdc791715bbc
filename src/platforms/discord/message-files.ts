/**
 * Files attached to a Discord message or command: downloaded from Discord's CDN only (no token sent),
 * the size Discord reports checked first. A message's "@ragent ingest" job is the core's chat ingest
 * job (`turns/incoming-message.ts`); without "ingest" the files are read for the question's thread alone
 * (`turns/thread-files.ts`). Sources link to a Discord message: an attachment's CDN address expires.
 */
import type { Attachment, Message, SendableChannels } from 'discord.js';
import type { IngestFile } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { chatFile } from '../../ingestion/chat-file.ts';
import { downloadFrom } from '../../ingestion/file-servers.ts';
import { type ChatIngestRequest, showingFirstStatus } from '../../turns/chat-ingest-job.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordMessageLink } from './discord-ids.ts';
import { discordPlaces } from './discord-scopes.ts';
import { openAnswerSurface } from './discord-surfaces.ts';
import { discordFileServers } from './download-attachment.ts';

/** One attachment as a file to download; its link is learnt once it is downloaded. */
export function attachmentFile(
  context: DiscordContext,
  attachment: Attachment,
  linkOf: () => Promise<string | undefined> | string | undefined,
): IngestFile {
  const { config } = context.services;
  return chatFile(attachment.name, async () => {
    const { url, name, size } = attachment;
    const bytes = await downloadFrom(
      discordFileServers(config.discord.apiUrl),
      { url, name, size },
      config.ingest.maxFileBytes,
    );
    return { bytes, link: await linkOf() };
  });
}

/** The message's attachments as files to download. */
export function messageAttachmentFiles(context: DiscordContext, message: Message): IngestFile[] {
  const link = message.guildId
    ? discordMessageLink(message.guildId, message.channelId, message.id)
    : undefined;
  return [...message.attachments.values()].map((each) => attachmentFile(context, each, () => link));
}

/** "@ragent ingest" with attachments, in a server: the progress is a reply in the message's channel. */
export function discordIngestFrom(
  context: DiscordContext,
  message: Message<true>,
  setChannel: string,
): Omit<ChatIngestRequest, 'asked'> {
  return {
    key: encodeId('discord', ['ingest', message.id]),
    reference: `message ${message.id}`,
    uploader: encodeId('discord', [message.author.id]),
    startedAt: message.createdTimestamp,
    sets: discordPlaces.sets(discordPlaces.at(message.guildId, setChannel)),
    defaultSet: context.services.config.ingest.defaultSet,
    open: showingFirstStatus(() => openAnswerSurface(context.surfaces, message.channel as SendableChannels)),
  };
}

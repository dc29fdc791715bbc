/**
 * Files a user gave the bot in Slack (the `/ragent ingest` form, a message that mentions the bot with
 * "ingest", or `/ragent ingest <url>`) as the core's chat ingest job: each file is downloaded from
 * Slack's own hosts with the bot token; the progress goes where the request came from (or, if the bot
 * cannot post there, to the user directly).
 */
import type { IngestFile } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { chatFile } from '../../ingestion/chat-file.ts';
import { downloadFrom } from '../../ingestion/file-servers.ts';
import type { ChatIngestRequest } from '../../turns/chat-ingest-job.ts';
import { type SlackFileReference, servedSlackFile, slackFileServers } from './download-slack-file.ts';
import { type SlackContext, slackPlaces } from './slack-context.ts';
import { isSlackLink } from './slack-link.ts';
import type { SlackDestination } from './slack-message.ts';
import { openIngestSurface } from './slack-surfaces.ts';

/** Where a request came from: its channel (a DM has no channel set), who asked, where progress goes. */
interface SlackIngestOrigin {
  teamId: string;
  channel: string;
  user: string;
  destination: SlackDestination;
  reference: string;
}

export function slackIngestFrom(
  context: SlackContext,
  { teamId, channel, user, destination, reference }: SlackIngestOrigin,
): Omit<ChatIngestRequest, 'asked'> {
  return {
    key: encodeId('slack', ['ingest', teamId, reference]),
    reference,
    uploader: user,
    // Only a channel (C…, or G… for private and group ones) has a set; a DM or a user id does not.
    sets: slackPlaces.sets(slackPlaces.at(teamId, channel, !/^[CG][A-Z0-9]+$/.test(channel))),
    defaultSet: context.services.config.ingest.defaultSet,
    open: (first) => openIngestSurface(context.surfaces, destination, user, first),
  };
}

/** A shared file; one shared in a message may lack its links until `files.info` is asked. */
export function slackFile(context: SlackContext, file: SlackFileReference): IngestFile {
  const { config } = context.services;
  return chatFile(file.name, async () => {
    const details =
      file.url_private_download || file.url_private
        ? file
        : { ...file, ...((await context.client.files.info({ file: file.id })).file as SlackFileReference) };
    const servers = slackFileServers(config.slack.botToken ?? '', config.slack.apiUrl);
    const bytes = await downloadFrom(servers, servedSlackFile(details), config.ingest.maxFileBytes);
    // Only Slack's own https links are kept (the renderer checks again).
    return {
      bytes,
      link: details.permalink && isSlackLink(details.permalink) ? details.permalink : undefined,
    };
  });
}

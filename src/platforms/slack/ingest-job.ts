/**
 * Files a user gave the bot in Slack (through the `/ragent ingest` form, or shared in a message that
 * mentions the bot with "ingest"), as a job for the turn runner: each file downloads from Slack's
 * own hosts with the bot token, into the channel's set or the workspace's (a DM has no channel set); the progress message goes where the
 * request came from (or, if the bot cannot post there, to the user directly).
 */
import type { IngestJob } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import type { IngestTarget } from '../../turns/ingest-target.ts';
import { webPageFile } from '../../turns/web-page-file.ts';
import { downloadSlackFile, type SlackFileReference } from './download-slack-file.ts';
import { channelScope, isDirectMessageChannel, type SlackContext, workspaceScope } from './slack-context.ts';
import { isSlackLink } from './slack-link.ts';
import type { SlackDestination } from './slack-message.ts';
import { openIngestSurface } from './slack-surfaces.ts';

export function slackIngestJob(
  context: SlackContext,
  request: {
    teamId: string;
    /** The channel the request came from, and which set the user picked. */
    channel: string;
    target: IngestTarget;
    user: string;
    files: SlackFileReference[];
    destination: SlackDestination;
    reference: string;
  },
): IngestJob {
  const { config } = context.services;
  return {
    key: encodeId('slack', ['ingest', request.teamId, request.reference]),
    reference: request.reference,
    scope: ingestScope(request.teamId, request.channel, request.target),
    uploader: request.user,
    files: request.files.map((file) => {
      let details = file;
      return {
        name: file.name,
        download: async () => {
          // Any file goes: the ingest tells its type from the bytes (and says clearly when it reads none).
          if (!file.url_private_download && !file.url_private) details = await fileDetails(context, file);
          return downloadSlackFile(details, {
            botToken: config.slack.botToken ?? '',
            apiUrl: config.slack.apiUrl,
            maxBytes: config.ingest.maxFileBytes,
          });
        },
        // Only Slack's own https links are kept (the renderer checks again).
        link: () => (details.permalink && isSlackLink(details.permalink) ? details.permalink : undefined),
      };
    }),
    open: (first) => openIngestSurface(context.surfaces, request.destination, request.user, first),
  };
}

/** `/ragent ingest <url…>`: the pages, fetched under the chat's address guard, as one ingest job. */
export function slackWebPagesJob(
  context: SlackContext,
  request: Omit<Parameters<typeof slackIngestJob>[1], 'files'> & { urls: string[] },
): IngestJob {
  return {
    ...slackIngestJob(context, { ...request, files: [] }),
    files: request.urls.map((url) => webPageFile(context.services.web, url)),
  };
}

async function fileDetails(context: SlackContext, file: SlackFileReference): Promise<SlackFileReference> {
  const result = await context.client.files.info({ file: file.id });
  return { ...file, ...(result.file as SlackFileReference) };
}

/** The scope an upload from `channel` goes to. */
export function ingestScope(teamId: string, channel: string, target: IngestTarget): string {
  // Only a channel (C…, or G… for private and group ones) has a set; a DM or a user id does not.
  return target === 'channel' && /^[CG][A-Z0-9]+$/.test(channel) && !isDirectMessageChannel(channel)
    ? channelScope(teamId, channel)
    : workspaceScope(teamId);
}

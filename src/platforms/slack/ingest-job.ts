/**
 * Files a user gave the bot in Slack (the `/ragent ingest` form, a message that mentions the bot with
 * "ingest", or `/ragent ingest <url>`) as the core's chat ingest job: each file is downloaded from
 * Slack's own hosts with the bot token; the progress goes where the request came from (or, if the bot
 * cannot post there, to the user directly).
 */
import type { IngestFile, IngestJob } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { chatIngestJob } from '../../turns/chat-ingest-job.ts';
import type { IngestTarget } from '../../turns/ingest-target.ts';
import { downloadSlackFile, type SlackFileReference } from './download-slack-file.ts';
import { channelScope, type SlackContext, workspaceScope } from './slack-context.ts';
import { isSlackLink } from './slack-link.ts';
import type { SlackDestination } from './slack-message.ts';
import { openIngestSurface } from './slack-surfaces.ts';

interface SlackIngestRequest {
  teamId: string;
  /** The channel the request came from, and which set the user picked or said (else the default). */
  channel: string;
  target: IngestTarget | undefined;
  user: string;
  files: SlackFileReference[];
  destination: SlackDestination;
  reference: string;
}

export function slackIngestJob(
  context: SlackContext,
  request: SlackIngestRequest,
  pages: readonly string[] = [],
): IngestJob {
  const { teamId, channel } = request;
  return chatIngestJob({
    key: encodeId('slack', ['ingest', teamId, request.reference]),
    reference: request.reference,
    uploader: request.user,
    // Only a channel (C…, or G… for private and group ones) has a set; a DM or a user id does not.
    sets: {
      channel: /^[CG][A-Z0-9]+$/.test(channel) ? channelScope(teamId, channel) : undefined,
      place: workspaceScope(teamId),
    },
    asked: { picked: request.target },
    defaultSet: context.services.config.ingest.defaultSet,
    files: request.files.map((file) => slackFile(context, file)),
    pages: { web: context.services.web, urls: pages },
    open: (first) => openIngestSurface(context.surfaces, request.destination, request.user, first),
  });
}

/** `/ragent ingest <url…>`: the pages as one ingest job. */
export function slackWebPagesJob(
  context: SlackContext,
  request: Omit<SlackIngestRequest, 'files'> & { urls: string[] },
): IngestJob {
  return slackIngestJob(context, { ...request, files: [] }, request.urls);
}

/** A shared file; one shared in a message may lack its links until `files.info` is asked. */
export function slackFile(context: SlackContext, file: SlackFileReference): IngestFile {
  const { config } = context.services;
  let details = file;
  return {
    name: file.name,
    download: async () => {
      if (!file.url_private_download && !file.url_private)
        details = {
          ...file,
          ...((await context.client.files.info({ file: file.id })).file as SlackFileReference),
        };
      return downloadSlackFile(details, {
        botToken: config.slack.botToken ?? '',
        apiUrl: config.slack.apiUrl,
        maxBytes: config.ingest.maxFileBytes,
      });
    },
    // Only Slack's own https links are kept (the renderer checks again).
    link: () => (details.permalink && isSlackLink(details.permalink) ? details.permalink : undefined),
  };
}

/**
 * A file a user shared with the bot, downloaded with the bot token through the core's bounded
 * download, from Slack's own file hosts only (plus the configured `SLACK_API_URL` origin, which is how
 * tests and proxies serve files). Slack answers a token without files:read with its sign-in page.
 */
import { platformHosts } from '../../ingestion/allowed-hosts.ts';
import { boundedDownload } from '../../ingestion/bounded-download.ts';

export interface SlackFileReference {
  id: string;
  name: string;
  /** Bytes, as Slack reports them. */
  size?: number;
  mimetype?: string;
  filetype?: string;
  url_private_download?: string;
  url_private?: string;
  /** The file's page in Slack (what an answer's source links to). */
  permalink?: string;
}

export interface DownloadOptions {
  botToken: string;
  /** SLACK_API_URL, when set: its origin may serve files too. */
  apiUrl: string | undefined;
  maxBytes: number;
}

export const slackFileHosts = ['slack.com', '.slack.com', 'slack-edge.com', '.slack-edge.com'];

export function downloadSlackFile(file: SlackFileReference, options: DownloadOptions): Promise<Uint8Array> {
  return boundedDownload({
    url: file.url_private_download ?? file.url_private,
    headers: { authorization: `Bearer ${options.botToken}` },
    allowedHosts: platformHosts(slackFileHosts, options.apiUrl),
    name: file.name,
    declaredSize: file.size,
    maxBytes: options.maxBytes,
    from: 'Slack',
    htmlIsSignInPage: file.filetype !== 'html' && file.mimetype !== 'text/html',
  });
}

/**
 * A file a user shared with the bot, as Slack lists it, and Slack's file servers for the core's
 * download (`ingestion/file-servers.ts`): Slack's own file hosts (plus the configured `SLACK_API_URL`
 * origin, which is how tests and proxies serve files), with the bot token. Slack answers a token
 * without files:read with its sign-in page.
 */
import type { FileServers, ServedFile } from '../../ingestion/file-servers.ts';

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

export const slackFileHosts = ['slack.com', '.slack.com', 'slack-edge.com', '.slack-edge.com'];

export function slackFileServers(botToken: string, apiUrl: string | undefined): FileServers {
  return { from: 'Slack', hosts: slackFileHosts, apiUrl, token: botToken, signInPage: true };
}

export function servedSlackFile(file: SlackFileReference): ServedFile {
  return {
    url: file.url_private_download ?? file.url_private,
    name: file.name,
    size: file.size,
    isHtml: file.filetype === 'html' || file.mimetype === 'text/html',
  };
}

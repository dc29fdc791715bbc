/**
 * A file attached to a message or command, downloaded through the core's bounded download from
 * Discord's CDN only (and, when DISCORD_API_URL points at a local Discord for tests, from that same
 * origin). No token is ever sent with it.
 */
import { platformHosts } from '../../ingestion/allowed-hosts.ts';
import { boundedDownload } from '../../ingestion/bounded-download.ts';

export const discordCdnHosts = ['cdn.discordapp.com', 'media.discordapp.net'];

export interface DownloadOptions {
  maxBytes: number;
  /** DISCORD_API_URL, when set: its origin may serve attachments too. */
  apiUrl: string | undefined;
  /** The file's name, as errors show it. */
  name?: string;
  /** The size Discord reports, checked before the download. */
  size?: number;
}

export function downloadAttachment(url: string, options: DownloadOptions): Promise<Uint8Array> {
  return boundedDownload({
    url,
    allowedHosts: platformHosts(discordCdnHosts, options.apiUrl),
    name: options.name ?? 'the attached file',
    declaredSize: options.size,
    maxBytes: options.maxBytes,
    from: 'Discord',
  });
}

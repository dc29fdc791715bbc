/**
 * Discord's file servers for the core's download (`ingestion/file-servers.ts`): its CDN only (and,
 * when DISCORD_API_URL points at a local Discord for tests, that same origin). No token is ever sent.
 */
import type { FileServers } from '../../ingestion/file-servers.ts';

export const discordCdnHosts = ['cdn.discordapp.com', 'media.discordapp.net'];

export function discordFileServers(apiUrl: string | undefined): FileServers {
  return { from: 'Discord', hosts: discordCdnHosts, apiUrl };
}

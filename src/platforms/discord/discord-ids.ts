/**
 * Discord's thread ids (`discord:<guild>:<thread>`, `discord:dm:<channel>`, made in discord-scopes.ts
 * through core/ids.ts) and the links that open them, or one message of a server.
 */
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';

const channelsAddress = 'https://discord.com/channels';

/** A link that opens the thread (or DM) in Discord, from its thread id. */
export function discordThreadLink(threadId: ThreadId): string | undefined {
  const [guild, channel] = threadParts(threadId, 'discord', 2) ?? [];
  if (!guild || !channel) return undefined;
  return `${channelsAddress}/${guild === 'dm' ? '@me' : guild}/${channel}`;
}

/** A link that opens one message of a server's channel: what a source ingested from Discord links to. */
export function discordMessageLink(guildId: string, channelId: string, messageId: string): string {
  return `${channelsAddress}/${guildId}/${channelId}/${messageId}`;
}

/** Only links to a message on Discord itself (digits only, so nothing can break out of the Markdown link). */
export function isDiscordMessageLink(link: string): boolean {
  return /^https:\/\/discord\.com\/channels\/\d+\/\d+\/\d+$/.test(link);
}

/**
 * Discord's thread ids (`discord:<guild>:<thread>`, `discord:dm:<channel>`, made in discord-scopes.ts
 * through core/ids.ts) and the links that open them.
 */
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';

/** A link that opens the thread (or DM) in Discord, from its thread id. */
export function discordThreadLink(threadId: ThreadId): string | undefined {
  const [guild, channel] = threadParts(threadId, 'discord', 2) ?? [];
  if (!guild || !channel) return undefined;
  return `https://discord.com/channels/${guild === 'dm' ? '@me' : guild}/${channel}`;
}

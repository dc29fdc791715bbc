/** Discord's thread ids (`discord:<guild>:<thread>`, `discord:dm:<channel>`) and the links that open them. */
import type { ThreadId } from '../../core/types.ts';

/** A link that opens the thread (or DM) in Discord, from its thread id. */
export function discordThreadLink(threadId: ThreadId): string | undefined {
  const [platform, guild, channel] = threadId.split(':');
  if (platform !== 'discord' || !guild || !channel) return undefined;
  return `https://discord.com/channels/${guild === 'dm' ? '@me' : guild}/${channel}`;
}

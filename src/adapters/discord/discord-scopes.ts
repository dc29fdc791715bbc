/**
 * Where a Discord conversation lives and which documents it may search. The scopes come from where
 * the message was posted, never from its text or the model.
 *
 * - In a server: thread id `discord:<guild>:<thread>`, scopes the server's own documents plus `shared`.
 * - In a DM: thread id `discord:dm:<channel>`, scope `shared` only. A DM belongs to no server, and a
 *   user may share servers with the bot that must not see each other's documents, so a DM sees none.
 */
import { type Scope, sharedScope, type ThreadId } from '../../core/types.ts';

export interface ConversationPlace {
  threadId: ThreadId;
  scopes: readonly Scope[];
}

export function guildScope(guildId: string): Scope {
  return `discord:${guildId}`;
}

export function placeInGuild(guildId: string, threadChannelId: string): ConversationPlace {
  return { threadId: `discord:${guildId}:${threadChannelId}`, scopes: [guildScope(guildId), sharedScope] };
}

export function placeInDirectMessages(channelId: string): ConversationPlace {
  return { threadId: `discord:dm:${channelId}`, scopes: [sharedScope] };
}

/** The place of a channel: a server thread/channel or a DM. */
export function placeOf(channel: { id: string; guildId: string | null }): ConversationPlace {
  return channel.guildId ? placeInGuild(channel.guildId, channel.id) : placeInDirectMessages(channel.id);
}

/** A link that opens the thread (or DM) in Discord, from its thread id. */
export function discordThreadLink(threadId: ThreadId): string | undefined {
  const [platform, guild, channel] = threadId.split(':');
  if (platform !== 'discord' || !guild || !channel) return undefined;
  return `https://discord.com/channels/${guild === 'dm' ? '@me' : guild}/${channel}`;
}

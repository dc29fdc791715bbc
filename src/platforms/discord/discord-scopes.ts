/**
 * Where a Discord conversation lives and which documents it may search. The scopes come from where
 * the message was posted, never from its text or the model.
 *
 * - In a server: thread id `discord:<guild>:<thread>`, scopes the channel's own set
 *   (`discord:<guild>:<channel>`; for a thread, its parent channel's), the server's and `shared` —
 *   never another channel's.
 * - In a DM: thread id `discord:dm:<channel>`, scope `shared` only. A DM belongs to no server, and a
 *   user may share servers with the bot that must not see each other's documents, so a DM sees none.
 */
import type { Channel, Client } from 'discord.js';
import type { CoordinationStore } from '../../core/coordination-store.ts';
import { encodeId } from '../../core/ids.ts';
import { type Scope, sharedScope, type ThreadId } from '../../core/types.ts';
import type { Logger } from '../../logger.ts';
import { type PlaceIds, placesOf } from '../../turns/place-sets.ts';

/** Discord's places (`turns/place-sets.ts`): a server is the place, its channels' sets are its own. */
export const discordPlaces = placesOf('discord', 'server');

export const guildScope = discordPlaces.placeScope;

/** The scope of one channel's document set. */
export const channelScope = discordPlaces.channelScope;

/** The channel whose set a conversation uses: a thread's parent, or the channel itself. */
export function setChannelOf(channel: Channel): string {
  return channel.isThread() && channel.parentId ? channel.parentId : channel.id;
}

/** The channel whose set an interaction works on (fetched when not cached; else the channel itself). */
export async function interactionSetChannel(
  client: Client,
  interaction: { channelId: string; channel: Channel | null },
): Promise<string> {
  const channel =
    interaction.channel ?? (await client.channels.fetch(interaction.channelId).catch(() => null));
  return channel ? setChannelOf(channel) : interaction.channelId;
}

/** Where an interaction was made (`turns/place-sets.ts`): its server and the channel whose set applies, or a DM. */
export async function interactionPlace(interaction: {
  guildId: string | null;
  channelId: string;
  channel: Channel | null;
  client: Client;
}): Promise<PlaceIds> {
  const { guildId, channelId } = interaction;
  if (!guildId) return discordPlaces.at('', channelId, true);
  return discordPlaces.at(guildId, await interactionSetChannel(interaction.client, interaction));
}

/** What a conversation in `channelId` (a thread's parent) may search, with the channel's links. */
export function guildChannelScopes(
  store: CoordinationStore,
  logger: Logger,
  guildId: string,
  channelId: string,
): Promise<Scope[]> {
  return discordPlaces.scopes(store, discordPlaces.at(guildId, channelId), logger);
}

export function placeInDirectMessages(channelId: string): { threadId: ThreadId; scopes: readonly Scope[] } {
  return { threadId: encodeId('discord', ['dm', channelId]), scopes: [sharedScope] };
}

/** The thread id of a channel: a server thread/channel or a DM. */
export function threadIdOf(channel: { id: string; guildId: string | null }): ThreadId {
  return channel.guildId
    ? encodeId('discord', [channel.guildId, channel.id])
    : placeInDirectMessages(channel.id).threadId;
}

/**
 * The sets a place searches, once for every platform, from where the event came and nothing else: in
 * a channel (and its threads) that channel's set and the workspace's/server's (plus `shared`, and the
 * channels it links to: see channel-links.ts) — never another channel's; in a direct message no
 * channel's set. The platform says only its ids for the place and the channel, and whether it is a DM.
 */
import type { ChannelSettings } from '../core/channel-settings.ts';
import { channelScope, placeScope } from '../core/ids.ts';
import type { Scope } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { withLinks } from './channel-links.ts';
import { type PlaceSets, scopesOfSets } from './document-commands.ts';

/** Where an event came from, in the platform's own ids. */
export interface PlaceIds {
  /** The workspace's/server's id. */
  place: string;
  /** The channel whose set applies (a thread's parent channel). */
  channel: string;
  inDirectMessage: boolean;
}

/** One platform's places: `placeName` is how its terms call one (`workspace`, `server`). */
export function placesOf(platform: string, placeName: string) {
  const places = {
    platform,
    /** Where an event in `channel` of `place` came from (a DM: `inDirectMessage`). */
    at: (place: string, channel: string, inDirectMessage = false): PlaceIds => ({
      place,
      channel,
      inDirectMessage,
    }),
    placeScope: (place: string): Scope => placeScope(platform, place),
    channelScope: (place: string, channel: string): Scope => channelScope(platform, place, channel),
    sets: (at: PlaceIds): PlaceSets => ({
      ...(at.inDirectMessage ? {} : { channel: places.channelScope(at.place, at.channel) }),
      place: places.placeScope(at.place),
      placeName,
    }),
    /** What a conversation there may search: its sets, with the channel's links. */
    scopes: async (store: ChannelSettings, at: PlaceIds, logger: Logger): Promise<Scope[]> =>
      scopesOfSets(await withLinks(store, places.sets(at), logger)),
  };
  return places;
}

export type Places = ReturnType<typeof placesOf>;

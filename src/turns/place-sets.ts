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

export interface PlaceIds {
  platform: string;
  /** The workspace's/server's own id. */
  place: string;
  /** `workspace` or `server`, as the platform's terms name it. */
  placeName: string;
  /** The channel whose set applies (a thread's parent channel). */
  channel: string;
  inDirectMessage: boolean;
}

export function placeSetsOf(ids: PlaceIds): PlaceSets {
  return {
    ...(ids.inDirectMessage ? {} : { channel: channelScope(ids.platform, ids.place, ids.channel) }),
    place: placeScope(ids.platform, ids.place),
    placeName: ids.placeName,
  };
}

/** What a conversation there may search: its sets, with the channel's links. */
export async function placeScopesOf(store: ChannelSettings, ids: PlaceIds, logger: Logger): Promise<Scope[]> {
  return scopesOfSets(await withLinks(store, placeSetsOf(ids), logger));
}

/**
 * Where a command was run, the same on every platform from the platform's places
 * (`turns/place-sets.ts`) and its ids: the channel's sets (a DM has no channel's), and the scope a
 * channel of this place has. What only the platform knows — how to look up a channel named in an
 * argument, whether it reads every message, its hand-off default — it gives.
 */
import type { PlaceIds, Places } from '../turns/place-sets.ts';
import type { CommandPlace } from './command-request.ts';

/** What only the platform knows about where its commands run. */
export type KnownAboutPlace = Pick<CommandPlace, 'lookUpChannel' | 'readsEveryMessage' | 'handOffDefault'>;

export function commandPlace(places: Places, at: PlaceIds, known: KnownAboutPlace): CommandPlace {
  return {
    sets: places.sets(at),
    ...(at.inDirectMessage ? {} : { channelId: at.channel }),
    inDirectMessage: at.inDirectMessage,
    channelScope: (id) => places.channelScope(at.place, id),
    platform: places.platform,
    ...known,
  };
}

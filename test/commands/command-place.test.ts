/**
 * Where a command was run, from a platform's places and ids alone: a channel's sets and id, a DM's
 * none, the scope of a channel named in an argument, and what only the platform knows passed on.
 */
import { describe, expect, it } from 'vitest';
import { commandPlace } from '../../src/commands/command-place.ts';
import { placesOf } from '../../src/turns/place-sets.ts';

const places = placesOf('chat', 'team');
const known = {
  lookUpChannel: async (id: string) => ({
    scope: places.channelScope('T1', id),
    inPlace: true,
    answerable: true,
  }),
  readsEveryMessage: false,
  handOffDefault: '@oncall',
};

describe('a command’s place', () => {
  it('works on the channel’s sets in a channel, and on the place’s alone in a DM', () => {
    const inChannel = commandPlace(places, { place: 'T1', channel: 'C1', inDirectMessage: false }, known);
    expect(inChannel).toMatchObject({
      sets: { channel: 'chat:T1:C1', place: 'chat:T1', placeName: 'team' },
      channelId: 'C1',
      inDirectMessage: false,
      platform: 'chat',
      readsEveryMessage: false,
      handOffDefault: '@oncall',
    });
    expect(inChannel.channelScope('C2')).toBe('chat:T1:C2');
    const inDirectMessage = commandPlace(
      places,
      { place: 'T1', channel: 'D1', inDirectMessage: true },
      known,
    );
    expect(inDirectMessage.sets).toEqual({ place: 'chat:T1', placeName: 'team' });
    expect(inDirectMessage.channelId).toBeUndefined();
  });
});

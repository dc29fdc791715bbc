import { describe, expect, it } from 'vitest';
import { platformActor } from '../../src/turns/actor.ts';

/** Roles that count how often the platform was asked. */
function roles(place: boolean, channel?: boolean) {
  const asked = { place: 0, channel: 0 };
  return {
    asked,
    roles: {
      managesPlace: async () => {
        asked.place += 1;
        return place;
      },
      ...(channel === undefined
        ? {}
        : {
            managesChannel: async () => {
              asked.channel += 1;
              return channel;
            },
          }),
    },
  };
}

const person = { id: 'recorded:U1', name: 'Ada', platformId: 'U1' };

describe('platformActor', () => {
  it('keeps the recorded id and the name', () => {
    const actor = platformActor(person, [], roles(false).roles);
    expect([actor.id, actor.name]).toEqual(['recorded:U1', 'Ada']);
  });

  it('asks the platform once however often the core asks', async () => {
    const { asked, roles: given } = roles(true);
    const actor = platformActor(person, [], given);
    expect(await actor.managesPlace()).toBe(true);
    expect(await actor.managesPlace()).toBe(true);
    expect(await actor.managesChannel()).toBe(true);
    expect(asked.place).toBe(1);
  });

  it('lets a listed admin manage everything without asking the platform', async () => {
    const { asked, roles: given } = roles(false, false);
    const actor = platformActor(person, ['U0', 'U1'], given);
    expect(await actor.managesPlace()).toBe(true);
    expect(await actor.managesChannel()).toBe(true);
    expect(asked).toEqual({ place: 0, channel: 0 });
  });

  it('matches the list on the platform id, not the recorded one', async () => {
    const actor = platformActor(person, ['recorded:U1'], roles(false).roles);
    expect(await actor.managesPlace()).toBe(false);
  });

  it('manages a channel by its own role or by managing the place', async () => {
    expect(await platformActor(person, [], roles(false, true).roles).managesChannel()).toBe(true);
    expect(await platformActor(person, [], roles(true, false).roles).managesChannel()).toBe(true);
    const neither = platformActor(person, [], roles(false, false).roles);
    expect([await neither.managesPlace(), await neither.managesChannel()]).toEqual([false, false]);
  });
});

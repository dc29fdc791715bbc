/**
 * Channel links with ids that hold `:` (Microsoft Teams and Matrix ids do): the place of a channel
 * scope comes from the id codec, so two channels of one team link, and channels of two teams whose ids
 * share a prefix up to a `:` never do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channelScope, placeScope } from '../../src/core/ids.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { linkChannel, withLinks } from '../../src/turns/channel-links.ts';

const logger = createLogger({ level: 'silent' });
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openStore() {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-links-'));
  const store = openSqliteCoordinationStore(directory);
  cleanups.push(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return store;
}

describe('channel links with ids holding ":"', () => {
  const team = '19:abc@thread.tacv2';
  const general = channelScope('teams', team, '19:general@thread.tacv2');
  const oncall = channelScope('teams', team, '19:oncall@thread.tacv2');
  const otherTeam = channelScope('teams', '19:abc', 'thread.tacv2:19:oncall@thread.tacv2');

  it('links two channels of one team and searches the linked set', async () => {
    const store = openStore();
    expect(await linkChannel(store, { channel: general, linked: oncall, placeName: 'team', logger })).toBe(
      true,
    );
    const sets = await withLinks(
      store,
      { channel: general, place: placeScope('teams', team), placeName: 'team' },
      logger,
    );
    expect(sets.linked).toEqual([oncall]);
  });

  it('refuses a channel of another team whose id shares a prefix up to a ":"', async () => {
    const store = openStore();
    await expect(
      linkChannel(store, { channel: general, linked: otherTeam, placeName: 'team', logger }),
    ).rejects.toMatchObject({ code: 'LINK_REFUSED' });
    // A stored link across teams (written by hand) is ignored.
    await store.linkChannel(general, otherTeam);
    const sets = await withLinks(
      store,
      { channel: general, place: placeScope('teams', team), placeName: 'team' },
      logger,
    );
    expect(sets.linked).toEqual([]);
  });
});

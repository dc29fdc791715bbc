/** The sets a place searches, once for every platform (src/turns/place-sets.ts), over a real SQLite store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { placesOf } from '../../src/turns/place-sets.ts';

const directory = mkdtempSync(path.join(tmpdir(), 'ragent-place-sets-'));
const store = openSqliteCoordinationStore(directory);
afterAll(async () => {
  await store.close();
  rmSync(directory, { recursive: true, force: true });
});
const logger = createLogger({ level: 'silent' });
const places = placesOf('chat', 'workspace');
const place = { place: 'W:1', channel: 'C1' };

describe('place sets', () => {
  it("gives a channel its own set and its place's; a direct message no channel's set", () => {
    expect(places.placeScope('W:1')).toBe('chat:W%3A1');
    expect(places.channelScope('W:1', 'C:2')).toBe('chat:W%3A1:C%3A2');
    expect(places.sets({ ...place, inDirectMessage: false })).toEqual({
      channel: 'chat:W%3A1:C1',
      place: 'chat:W%3A1',
      placeName: 'workspace',
    });
    expect(places.sets({ ...place, inDirectMessage: true })).toEqual({
      place: 'chat:W%3A1',
      placeName: 'workspace',
    });
    expect(places.at('W:1', 'C1')).toEqual({ ...place, inDirectMessage: false });
    expect(places.at('W:1', 'C1', true)).toEqual({ ...place, inDirectMessage: true });
  });

  it("searches a channel's links within its place, never another place's, and none from a DM", async () => {
    await store.linkChannel('chat:W%3A1:C1', 'chat:W%3A1:C2');
    await store.linkChannel('chat:W%3A1:C1', 'chat:OTHER:C3');
    expect(await places.scopes(store, { ...place, inDirectMessage: false }, logger)).toEqual([
      'chat:W%3A1:C1',
      'chat:W%3A1:C2',
      'chat:W%3A1',
      'shared',
    ]);
    expect(await places.scopes(store, { ...place, inDirectMessage: true }, logger)).toEqual([
      'chat:W%3A1',
      'shared',
    ]);
  });
});

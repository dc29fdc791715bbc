/**
 * The contract of `TurnRecords` (src/core/turn-records.ts): turns begun, moved and ended; a gone
 * owner's turns adopted once by the next process/replica; a claim and its record in one write.
 */
import { describe, expect, it } from 'vitest';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function turnRecordsContract(backend: CoordinationBackend) {
  describe(`${backend.name}: TurnRecords contract`, () => {
    const storage = contractStorage(backend);

    it('hands the turns of a gone owner to the next replica, per platform, oldest first, with their latest location', async () => {
      const shared = await storage();
      const crashed = await shared.open();
      await crashed.beginTurn({
        key: 'b',
        platform: 'slack',
        kind: 'answer',
        location: { channel: 'C1' },
        startedAt: 2,
      });
      await crashed.beginTurn({
        key: 'a',
        platform: 'slack',
        kind: 'ingest',
        location: { channel: 'C2' },
        startedAt: 1,
      });
      await crashed.beginTurn({
        key: 'd',
        platform: 'discord',
        kind: 'answer',
        location: { channelId: '7' },
      });
      await crashed.moveTurn('b', { channel: 'C1', placeholderTs: '1.5' });
      await crashed.beginTurn({ key: 'done', platform: 'slack', kind: 'answer', location: {}, startedAt: 3 });
      await crashed.endTurn('done');
      // Its own turns are never orphans to the owner itself.
      expect(await crashed.adoptOrphanedTurns('slack')).toEqual([]);
      // The process dies: its connection (and, with Postgres, its liveness lock) goes with it.
      await crashed.close();

      const next = await shared.open();
      const adopted = await next.adoptOrphanedTurns('slack');
      expect(adopted).toEqual([
        {
          key: 'a',
          platform: 'slack',
          kind: 'ingest',
          owner: next.replicaId,
          location: { channel: 'C2' },
          startedAt: 1,
        },
        {
          key: 'b',
          platform: 'slack',
          kind: 'answer',
          owner: next.replicaId,
          location: { channel: 'C1', placeholderTs: '1.5' },
          startedAt: 2,
        },
      ]);
      // Adopted once: now this replica's, not an orphan any more.
      expect(await next.adoptOrphanedTurns('slack')).toEqual([]);
      expect((await next.adoptOrphanedTurns('discord')).map((turn) => turn.key)).toEqual(['d']);
      for (const turn of adopted) await next.endTurn(turn.key);
      expect(await (await shared.open()).adoptOrphanedTurns('slack')).toEqual([]);
    });

    it('ends a turn as a no-op after close', async () => {
      const shared = await storage();
      const store = await shared.open();
      await store.beginTurn({ key: 'k', platform: 'slack', kind: 'answer', location: {} });
      await store.close();
      await expect(store.endTurn('k')).resolves.toBeUndefined();
      expect((await (await shared.open()).adoptOrphanedTurns('slack')).map((turn) => turn.key)).toEqual([
        'k',
      ]);
    });

    it('claims an event and begins its turn in one write, once', async () => {
      const shared = await storage();
      const first = await shared.open();
      const turn = {
        key: 'slack:Ev7',
        platform: 'slack',
        kind: 'answer',
        location: { channel: 'C1' },
      } as const;
      expect(await first.claimAndBeginTurn({ ...turn, startedAt: 4 })).toBe(true);
      const second = await shared.open();
      expect(await second.claimAndBeginTurn({ ...turn, location: { channel: 'elsewhere' } })).toBe(false);
      expect(await second.claimEvent('slack:Ev7')).toBe(false);
      await first.close();
      // Begun by the first claim only: its record, with its location.
      expect(await (await shared.open()).adoptOrphanedTurns('slack')).toEqual([
        expect.objectContaining({ key: 'slack:Ev7', location: { channel: 'C1' }, startedAt: 4 }),
      ]);
    });
  });
}

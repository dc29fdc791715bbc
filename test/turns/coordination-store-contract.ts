/**
 * The contract of `CoordinationStore`, as one spec any implementation runs (SQLite here; Postgres
 * runs the same). `open` gives a store on shared storage: two stores opened by one factory are two
 * processes/replicas on the same data (their replica ids differ); `close` ends the factory's storage.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';

export interface CoordinationStoreFactory {
  /** A store on the factory's storage, as a new process/replica would open it. */
  open(): Promise<CoordinationStore>;
  /** Removes the storage (after every store of it closed). */
  dispose(): Promise<void>;
}

export function coordinationStoreContract(
  name: string,
  createFactory: () => Promise<CoordinationStoreFactory>,
) {
  describe(`${name}: coordination store contract`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    const storage = async () => {
      const factory = await createFactory();
      cleanups.push(() => factory.dispose());
      return {
        open: async () => {
          const store = await factory.open();
          cleanups.push(() => store.close());
          return store;
        },
      };
    };

    it('claims an event once, also for another replica', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.claimEvent('slack:Ev1')).toBe(true);
      expect(await first.claimEvent('slack:Ev1')).toBe(false);
      const second = await shared.open();
      expect(second.replicaId).not.toBe(first.replicaId);
      expect(await second.claimEvent('slack:Ev1')).toBe(false);
      expect(await second.claimEvent('slack:Ev2')).toBe(true);
    });

    it('keeps one vote per user and answer, the latest, listed by thread or since a time', async () => {
      const store = await (await storage()).open();
      const base = {
        threadId: 'slack:T1:C1:1.0',
        answerId: 'a1',
        user: 'U1',
        at: '2026-11-30T00:00:00Z',
      } as const;
      await store.recordFeedback({ ...base, value: 'up' });
      await store.recordFeedback({ ...base, value: 'down', at: '2026-11-30T00:01:00Z' });
      await store.recordFeedback({ ...base, user: 'U2', value: 'up' });
      await store.recordFeedback({
        ...base,
        threadId: 'other',
        answerId: 'a2',
        value: 'up',
        at: '2026-11-30T00:02:00Z',
      });
      const thread = await store.listFeedback({ threadId: 'slack:T1:C1:1.0' });
      expect(thread.map((entry) => [entry.user, entry.value])).toEqual([
        ['U2', 'up'],
        ['U1', 'down'],
      ]);
      expect(await store.listFeedback({ threadId: 'none' })).toEqual([]);
      expect(
        (await store.listFeedback({ since: '2026-11-30T00:01:00Z' })).map((entry) => entry.answerId),
      ).toEqual(['a1', 'a2']);
      expect(await store.listFeedback()).toHaveLength(3);
    });

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

    it('remembers delivered answers for the feedback export, across replicas, the latest per id', async () => {
      const shared = await storage();
      const store = await shared.open();
      const delivered = {
        answerId: 'a1',
        threadId: 'slack:T1:C1:1.0',
        question: 'How do I loop?',
        answer: 'Use **while**.',
        sources: [{ file: 'bash.pdf', docId: 'd1', pages: [3, 4] as [number, number] }],
        link: 'https://app.slack.com/client/T1/C1/thread/C1-1.0',
        at: '2026-11-30T00:00:00.000Z',
      };
      await store.recordAnswer(delivered);
      await store.recordAnswer({ ...delivered, answerId: 'a2', link: undefined, sources: [] });
      await store.recordAnswer({ ...delivered, answerId: 'a2', answer: 'Use **for**.', sources: [] });
      const other = await shared.open();
      const found = await other.findAnswers(['a2', 'a1', 'missing', 'a1']);
      expect(found.sort((a, b) => a.answerId.localeCompare(b.answerId))).toEqual([
        delivered,
        {
          answerId: 'a2',
          threadId: 'slack:T1:C1:1.0',
          question: 'How do I loop?',
          answer: 'Use **for**.',
          sources: [],
          link: delivered.link,
          at: delivered.at,
        },
      ]);
      expect(await other.findAnswers([])).toEqual([]);
      const unstamped = await shared.open();
      await unstamped.recordAnswer({ ...delivered, answerId: 'a3', at: undefined, link: undefined });
      const [third] = await unstamped.findAnswers(['a3']);
      expect(third?.at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(third && 'link' in third).toBe(false);
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

    it('keeps channel links, seen by every replica, per channel', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(true);
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(false);
      expect(await first.linkChannel('slack:T1:C1', 'slack:T1:C2')).toBe(true);
      const second = await shared.open();
      expect(await second.linkedChannels('slack:T1:C1')).toEqual(['slack:T1:C2', 'slack:T1:C9']);
      // A link goes one way: the linked channel searches only its own set.
      expect(await second.linkedChannels('slack:T1:C9')).toEqual([]);
      expect(await second.unlinkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(true);
      expect(await second.unlinkChannel('slack:T1:C1', 'slack:T1:C9')).toBe(false);
      expect(await first.linkedChannels('slack:T1:C1')).toEqual(['slack:T1:C2']);
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

    it("runs a thread's only turn at once, recording where its status is", async () => {
      const shared = await storage();
      const store = await shared.open();
      const thread = { threadId: 'slack:T1:C1:1.0', position: '1.0' };
      await store.beginTurn({
        key: 'k',
        platform: 'slack',
        kind: 'answer',
        location: { at: 'message' },
        thread,
      });
      const run = await store.runInThreadOrder(
        {
          key: 'k',
          thread,
          location: { at: 'status' },
          answer: { text: 'q', place: { threadId: thread.threadId, scopes: [], user: 'U1' }, reference: 'r' },
        },
        async () => 42,
      );
      expect(run).toEqual({ ran: true, result: 42 });
      await store.close();
      expect(await (await shared.open()).adoptOrphanedTurns('slack')).toEqual([
        expect.objectContaining({ key: 'k', location: { at: 'status' } }),
      ]);
    });

    it('keeps named settings per channel, seen by every replica; null clears one', async () => {
      const shared = await storage();
      const first = await shared.open();
      expect(await first.channelSetting('slack:T1:C1', 'auto-answer')).toBeUndefined();
      await first.setChannelSetting('slack:T1:C1', 'auto-answer', 'on');
      await first.setChannelSetting('slack:T1:C1', 'hand-off', 'G1');
      await first.setChannelSetting('slack:T1:C2', 'auto-answer', 'off');
      const second = await shared.open();
      expect(await second.channelSetting('slack:T1:C1', 'auto-answer')).toBe('on');
      await second.setChannelSetting('slack:T1:C1', 'auto-answer', 'off');
      expect(await first.channelSetting('slack:T1:C1', 'auto-answer')).toBe('off');
      await second.setChannelSetting('slack:T1:C1', 'hand-off', null);
      await second.setChannelSetting('slack:T1:C9', 'hand-off', null);
      expect(await first.channelSetting('slack:T1:C1', 'hand-off')).toBeUndefined();
      expect(await first.channelSetting('slack:T1:C2', 'auto-answer')).toBe('off');
      // Settings are not links, nor links settings.
      expect(await first.linkedChannels('slack:T1:C1')).toEqual([]);
    });
  });
}

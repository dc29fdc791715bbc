/**
 * The contract of `ThreadOrder` (src/core/thread-order.ts) that every backend shares: a turn alone in its
 * thread runs at once where it is recorded, and threads never wait for each other. How turns of one
 * thread wait for each other across replicas is Postgres's own (postgres-coordination-store.test.ts);
 * one process queues them in its conversations.
 */
import { describe, expect, it } from 'vitest';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function threadOrderContract(backend: CoordinationBackend) {
  describe(`${backend.name}: ThreadOrder contract`, () => {
    const storage = contractStorage(backend);

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

    it('runs turns of different threads side by side: neither waits for the other', async () => {
      const store = await (await storage()).open();
      const turnIn = async (key: string, threadId: string) => {
        const thread = { threadId, position: '1.0' };
        await store.beginTurn({ key, platform: 'slack', kind: 'answer', location: {}, thread });
        return {
          key,
          thread,
          location: { at: key },
          answer: { text: 'q', place: { threadId, scopes: [], user: 'U1' }, reference: key },
        };
      };
      const [first, second] = [await turnIn('a', 'slack:T1:C1:1.0'), await turnIn('b', 'slack:T1:C2:1.0')];
      let startSecond = () => {};
      const secondStarted = new Promise<void>((resolve) => {
        startSecond = resolve;
      });
      const queued: number[] = [];
      // The first turn's work ends only once the second one runs: it would never end if they waited.
      const runs = await Promise.all([
        store.runInThreadOrder(first, () => secondStarted.then(() => 'first'), {
          onQueued: (ahead) => queued.push(ahead),
        }),
        store.runInThreadOrder(
          second,
          async () => {
            startSecond();
            return 'second';
          },
          { onQueued: (ahead) => queued.push(ahead) },
        ),
      ]);
      expect(runs).toEqual([
        { ran: true, result: 'first' },
        { ran: true, result: 'second' },
      ]);
      expect(queued).toEqual([]);
    });
  });
}

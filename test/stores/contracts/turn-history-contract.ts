/**
 * The contract of `TurnHistory` (src/core/turn-history.ts), one spec run against SQLite
 * (`test/stores/sqlite-turn-history.test.ts`) and PostgreSQL (`test/stores/postgres-turn-history.test.ts`).
 * `open` gives a store on shared storage: two stores of one factory are two processes/replicas.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PastTurn, TurnHistory } from '../../../src/core/turn-history.ts';

export interface TurnHistoryFactory {
  open(): Promise<TurnHistory>;
  dispose(): Promise<void>;
}

const record = (id: string, overrides: Partial<PastTurn> = {}): PastTurn => ({
  id,
  platform: 'slack',
  scopes: ['slack:T1:C1', 'slack:T1'],
  threadId: `slack:T1:C1:${id}`,
  user: 'U1',
  question: `question ${id}?`,
  startedAt: '2026-11-30T10:00:00.000Z',
  durationMs: 1_250,
  outcome: 'answered',
  citedDocuments: [{ documentId: 'd1', name: 'guide.pdf' }],
  ...overrides,
});

export function turnHistoryContract(name: string, createFactory: () => Promise<TurnHistoryFactory>) {
  describe(`${name}: turn history contract`, () => {
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

    it('keeps every field of a record, optional ones only when given', async () => {
      const store = await (await storage()).open();
      const failed = record('t2', {
        platform: 'cli',
        scopes: ['shared'],
        outcome: 'failed',
        errorCode: 'OLLAMA_UNREACHABLE',
        citedDocuments: [],
        startedAt: '2026-11-30T10:05:00.000Z',
      });
      const answered = record('t1', { link: 'https://example.slack.com/archives/C1/p1' });
      await store.recordTurn(failed);
      await store.recordTurn(answered);
      expect(await store.listTurns()).toEqual([answered, failed]);
    });

    it('writes a record once per id, also from another replica', async () => {
      const shared = await storage();
      const first = await shared.open();
      const second = await shared.open();
      await first.recordTurn(record('t1'));
      await second.recordTurn(record('t1', { outcome: 'failed', errorCode: 'INTERNAL' }));
      await first.recordTurn(record('t1', { durationMs: 9 }));
      expect(await second.listTurns()).toEqual([record('t1')]);
    });

    it('lists by time window, platform and scope, oldest first', async () => {
      const store = await (await storage()).open();
      await store.recordTurn(record('late', { startedAt: '2026-11-30T12:00:00.000Z' }));
      await store.recordTurn(record('early', { startedAt: '2026-11-29T12:00:00.000Z' }));
      await store.recordTurn(
        record('discord', { platform: 'discord', scopes: ['discord:G1'], startedAt: '2026-11-30T11:00:00Z' }),
      );
      const ids = async (query: Parameters<TurnHistory['listTurns']>[0]) =>
        (await store.listTurns(query)).map((turn) => turn.id);
      expect(await ids({})).toEqual(['early', 'discord', 'late']);
      expect(await ids({ since: '2026-11-30T00:00:00Z' })).toEqual(['discord', 'late']);
      expect(await ids({ until: '2026-11-30T12:00:00Z' })).toEqual(['early', 'discord']);
      expect(await ids({ platform: 'slack' })).toEqual(['early', 'late']);
      expect(await ids({ scopes: ['slack:T1'] })).toEqual(['early', 'late']);
      expect(await ids({ scopes: ['discord:G1', 'shared'] })).toEqual(['discord']);
      expect(await ids({ scopes: ['slack:T2'] })).toEqual([]);
      expect(
        await ids({ since: '2026-11-30T00:00:00Z', platform: 'slack', scopes: ['slack:T1:C1'] }),
      ).toEqual(['late']);
    });

    it('forgets the question text of turns before a time and keeps their outcome', async () => {
      const store = await (await storage()).open();
      await store.recordTurn(record('old', { startedAt: '2026-08-01T00:00:00.000Z' }));
      await store.recordTurn(record('new', { startedAt: '2026-11-30T00:00:00.000Z' }));
      expect(await store.forgetQuestionsBefore('2026-09-01T00:00:00Z')).toBe(1);
      expect(await store.forgetQuestionsBefore('2026-09-01T00:00:00Z')).toBe(0);
      const [old, kept] = await store.listTurns();
      expect(old).toEqual(record('old', { startedAt: '2026-08-01T00:00:00.000Z', question: '' }));
      expect(kept?.question).toBe('question new?');
    });
  });
}

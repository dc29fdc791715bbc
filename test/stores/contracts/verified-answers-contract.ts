/**
 * The contract of `VerifiedAnswers` (src/core/verified-answers.ts), one spec run against SQLite
 * (`test/stores/sqlite-verified-answers.test.ts`) and PostgreSQL (`test/stores/postgres-verified-answers.test.ts`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { VerifiedAnswer, VerifiedAnswers } from '../../../src/core/verified-answers.ts';

export interface VerifiedAnswersFactory {
  open(): Promise<VerifiedAnswers>;
  /**
   * Writes a row as versions that kept one source wrote it (the `source` column: one JSON object, or
   * NULL), straight into the backend's table (a store opened first has made it).
   */
  writeOneSourceRow(row: OneSourceRow): Promise<void>;
  dispose(): Promise<void>;
}

export interface OneSourceRow {
  id: string;
  scope: string;
  question: string;
  answer: string;
  /** The JSON text of the one source, or null. */
  source: string | null;
  verifiedBy: string;
  verifiedAt: string;
}

const verified = (id: string, overrides: Partial<VerifiedAnswer> = {}): VerifiedAnswer => ({
  id,
  scope: 'slack:T1',
  question: `question ${id}?`,
  answer: `The answer to ${id}, **verified**.`,
  sources: [],
  verifiedBy: 'U1',
  verifiedAt: '2026-11-30T10:00:00.000Z',
  ...overrides,
});

export function verifiedAnswersContract(name: string, createFactory: () => Promise<VerifiedAnswersFactory>) {
  describe(`${name}: verified answers contract`, () => {
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
        writeOneSourceRow: (row: OneSourceRow) => factory.writeOneSourceRow(row),
      };
    };

    it('keeps every field, the sources only when given, listed oldest first and by scope', async () => {
      const shared = await storage();
      const store = await shared.open();
      const withSource = verified('b', {
        scope: 'shared',
        verifiedAt: '2026-11-30T09:00:00.000Z',
        sources: [{ file: 'handbook.pdf', pages: [4, 5], documentId: 'sha-1' }],
      });
      await store.addVerifiedAnswer(verified('a'));
      await store.addVerifiedAnswer(withSource);
      await store.addVerifiedAnswer(
        verified('c', { scope: 'discord:G1', verifiedAt: '2026-11-30T11:00:00Z' }),
      );
      // Another replica sees them.
      const other = await shared.open();
      expect(await other.listVerifiedAnswers()).toEqual([
        withSource,
        verified('a'),
        verified('c', { scope: 'discord:G1', verifiedAt: '2026-11-30T11:00:00.000Z' }),
      ]);
      expect((await other.listVerifiedAnswers(['slack:T1', 'shared'])).map((answer) => answer.id)).toEqual([
        'b',
        'a',
      ]);
      expect(await other.listVerifiedAnswers(['slack:T2'])).toEqual([]);
      expect(await other.listVerifiedAnswers([])).toEqual([]);
    });

    it('keeps several sources in their order, each with its pages and document id (when it has one)', async () => {
      const store = await (await storage()).open();
      const sources: VerifiedAnswer['sources'] = [
        { file: 'handbook.pdf', pages: [4, 5], documentId: 'sha-1' },
        { file: 'policy.docx', pages: [1, 1], documentId: 'sha-2' },
        { file: 'thread', pages: [1, 1] },
      ];
      await store.addVerifiedAnswer(verified('a', { answer: 'Use the VPN [1] and sign [2].', sources }));
      expect(await store.listVerifiedAnswers()).toEqual([
        verified('a', { answer: 'Use the VPN [1] and sign [2].', sources }),
      ]);
      // Replaced by one with fewer: the old list is gone, not merged.
      await store.addVerifiedAnswer(verified('a', { sources: sources.slice(1, 2) }));
      expect(await store.listVerifiedAnswers()).toEqual([verified('a', { sources: sources.slice(1, 2) })]);
    });

    it('reads a row written when a verified answer kept one source as a one-source list', async () => {
      const shared = await storage();
      const store = await shared.open();
      const row = {
        scope: 'slack:T1',
        question: 'How do I connect?',
        answer: 'Open the client.',
        verifiedBy: 'U1',
        verifiedAt: '2026-11-30T10:00:00.000Z',
      };
      await shared.writeOneSourceRow({
        ...row,
        id: 'old1',
        source: JSON.stringify({ file: 'handbook.pdf', pages: [4, 5], documentId: 'sha-1' }),
      });
      await shared.writeOneSourceRow({ ...row, id: 'old2', source: null });
      expect(await store.listVerifiedAnswers()).toEqual([
        {
          ...row,
          id: 'old1',
          sources: [{ file: 'handbook.pdf', pages: [4, 5], documentId: 'sha-1' }],
        },
        { ...row, id: 'old2', sources: [] },
      ]);
    });

    it('replaces an answer added again with its id, and removes one by id once', async () => {
      const store = await (await storage()).open();
      await store.addVerifiedAnswer(verified('a'));
      await store.addVerifiedAnswer(verified('a', { answer: 'Corrected.', verifiedBy: 'U2' }));
      expect(await store.listVerifiedAnswers()).toEqual([
        verified('a', { answer: 'Corrected.', verifiedBy: 'U2' }),
      ]);
      expect(await store.removeVerifiedAnswer('a')).toBe(true);
      expect(await store.removeVerifiedAnswer('a')).toBe(false);
      expect(await store.listVerifiedAnswers()).toEqual([]);
    });
  });
}

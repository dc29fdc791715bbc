/**
 * The contract of `FeedbackStore` (src/core/feedback-store.ts): one vote per user and answer, the
 * latest; delivered answers remembered for the export, seen by every replica.
 */
import { describe, expect, it } from 'vitest';
import { type CoordinationBackend, contractStorage } from './coordination-backend.ts';

export function feedbackStoreContract(backend: CoordinationBackend) {
  describe(`${backend.name}: FeedbackStore contract`, () => {
    const storage = contractStorage(backend);

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

    it("keeps a 👎's reason and comment with the vote, and drops them when the vote changes without one", async () => {
      const store = await (await storage()).open();
      const base = { threadId: 'slack:T1:C1:1.0', answerId: 'a1', at: '2026-11-30T00:00:00.000Z' } as const;
      await store.recordFeedback({ ...base, user: 'U1', value: 'down' });
      await store.recordFeedback({
        ...base,
        user: 'U1',
        value: 'down',
        reason: 'other',
        comment: 'It names the 2024 price list, "not" the new one',
      });
      await store.recordFeedback({ ...base, user: 'U2', value: 'down', reason: 'outdated' });
      await store.recordFeedback({ ...base, user: 'U3', value: 'down', reason: 'wrong' });
      await store.recordFeedback({ ...base, user: 'U3', value: 'up' });
      expect(await store.listFeedback()).toEqual([
        {
          ...base,
          user: 'U1',
          value: 'down',
          reason: 'other',
          comment: 'It names the 2024 price list, "not" the new one',
        },
        { ...base, user: 'U2', value: 'down', reason: 'outdated' },
        { ...base, user: 'U3', value: 'up' },
      ]);
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
  });
}

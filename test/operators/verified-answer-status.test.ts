/**
 * A verified answer's staleness with several sources: stale once any one of its documents is no longer
 * in its scope as verified (forgotten, changed, or only in another scope), naming those; a source with
 * no document id is never the reason.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '../../src/core/types.ts';
import type { VerifiedAnswer } from '../../src/core/verified-answers.ts';
import { formatVerifiedSource, goneSources, isStale } from '../../src/operators/verified-answer-status.ts';

const document = (id: string, scope = 'shared'): DocumentRecord => ({
  id,
  name: `${id}.pdf`,
  scope,
  pages: 9,
  bytes: 1,
  parents: 1,
  children: 1,
  uploader: 'u',
  ingestedAt: '2026-11-30T10:00:00.000Z',
  embeddingModel: null,
});

const answer: VerifiedAnswer = {
  id: 'v1',
  scope: 'shared',
  question: 'q?',
  answer: 'a [1][2].',
  sources: [
    { file: 'a.pdf', pages: [4, 5], documentId: 'sha-a' },
    { file: 'thread', pages: [1, 1] },
    { file: 'b.pdf', pages: [2, 2], documentId: 'sha-b' },
  ],
  verifiedBy: 'U1',
  verifiedAt: '2026-11-30T10:00:00.000Z',
};

describe('verified answer status', () => {
  it('stands while every document it names is in its scope as verified', () => {
    const documents = [document('sha-a'), document('sha-b')];
    expect(goneSources(answer, documents)).toEqual([]);
    expect(isStale(answer, documents)).toBe(false);
    expect(isStale({ ...answer, sources: [] }, [])).toBe(false);
  });

  it('is stale once any one of them is gone or only elsewhere, naming those in order', () => {
    expect(goneSources(answer, [document('sha-a')]).map(formatVerifiedSource)).toEqual(['b.pdf:2']);
    expect(isStale(answer, [document('sha-a')])).toBe(true);
    expect(
      goneSources(answer, [document('sha-a', 'slack:T1'), document('sha-b')]).map(formatVerifiedSource),
    ).toEqual(['a.pdf:4-5']);
    expect(goneSources(answer, []).map((source) => source.file)).toEqual(['a.pdf', 'b.pdf']);
  });
});

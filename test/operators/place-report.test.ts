import { describe, expect, it } from 'vitest';
import type { PastTurn } from '../../src/core/turn-history.ts';
import { createPlaceReport, fitLines, inPlace } from '../../src/operators/place-report.ts';

const turn = (id: string, threadId: string, scopes: string[]): PastTurn => ({
  id,
  platform: 'discord',
  scopes,
  threadId,
  user: 'u',
  question: `question ${id}`,
  startedAt: '2026-11-30T10:00:00.000Z',
  durationMs: 1,
  outcome: 'not-found',
  citedDocuments: [],
});

describe('a place report', () => {
  it('takes a scope as the place’s only when it is the place or one of its channels', () => {
    expect(inPlace('discord:12', 'discord:12')).toBe(true);
    expect(inPlace('discord:12:34', 'discord:12')).toBe(true);
    expect(inPlace('discord:123', 'discord:12')).toBe(false);
    expect(inPlace('discord:123:4', 'discord:12')).toBe(false);
    expect(inPlace('shared', 'discord:12')).toBe(false);
  });

  it('keeps only the place’s threads, documents and verified answers, whatever the sources return', async () => {
    const turns = [
      turn('mine', 'discord:12:9', ['discord:12:9', 'discord:12', 'shared']),
      // A source that returned too much (a neighbouring server whose id starts the same) is filtered.
      turn('theirs', 'discord:123:9', ['discord:123:9', 'discord:123', 'shared']),
    ];
    const document = (name: string, scope: string) => ({
      id: name,
      name,
      scope,
      pages: 1,
      bytes: 1,
      parents: 1,
      children: 1,
      uploader: 'u',
      ingestedAt: '2026-11-30T10:00:00.000Z',
      embeddingModel: null,
    });
    const report = await createPlaceReport(
      {
        turnHistory: { listTurns: async () => turns },
        listFeedback: async () => [],
        listPlaceDocuments: async () => [
          document('ours.pdf', 'discord:12:9'),
          document('theirs.pdf', 'discord:123'),
          document('shared.pdf', 'shared'),
        ],
        verifiedAnswers: { listVerifiedAnswers: async () => [] },
      },
      {
        place: 'discord:12',
        platform: 'discord',
        ownsThread: (threadId) => threadId.startsWith('discord:12:'),
        since: '2026-11-01T00:00:00.000Z',
      },
    );
    expect(report.totals.questions).toBe(1);
    expect(report.unanswered.map((question) => question.text)).toEqual(['question mine']);
    expect(report.uncitedDocuments.map((each) => each.name)).toEqual(['ours.pdf']);
  });

  it('fits lines in a limit and says how many it left out', () => {
    const more = (left: number) => `+${left}`;
    expect(fitLines(['aaaa', 'bbbb', 'cccc'], 0, 100, more)).toEqual(['aaaa', 'bbbb', 'cccc']);
    const kept = fitLines(['aaaa', 'bbbb', 'cccc'], 2, 12, more);
    expect(kept).toEqual(['aaaa', '+4']);
    expect(kept.join('\n').length).toBeLessThanOrEqual(12);
    expect(fitLines(['a'.repeat(50)], 0, 10, more)).toEqual(['+1']);
  });
});

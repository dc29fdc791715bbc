/**
 * "Verify" over the real SQLite stores: the verified answer keeps every source of the delivered answer
 * (in order, up to the cap), and its [n] citation numbers only while they still point at those sources;
 * served again, it lists them numbered the same way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifiedAnswerOf } from '../../src/conversations/verified-answer-reply.ts';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import type { Source } from '../../src/core/types.ts';
import { maxVerifiedSources, type VerifiedAnswers } from '../../src/core/verified-answers.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { openSqliteVerifiedAnswers } from '../../src/stores/sqlite-verified-answers.ts';
import { verifyAnswer, withoutCitationNumbers } from '../../src/turns/verify-answer.ts';

const threadId = 'chat:W1:C1:100';
const source = (index: number): Source => ({
  file: `doc-${index}.pdf`,
  docId: `sha-${index}`,
  pages: [index, index + 1],
});

describe('verifyAnswer', () => {
  let directory: string;
  let coordination: CoordinationStore;
  let verifiedAnswers: VerifiedAnswers;
  beforeEach(() => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-verify-answer-'));
    coordination = openSqliteCoordinationStore(directory);
    verifiedAnswers = openSqliteVerifiedAnswers(directory);
  });
  afterEach(async () => {
    await verifiedAnswers.close();
    await coordination.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const verifyDelivered = async (answer: string, sources: Source[]) => {
    await coordination.recordAnswer({
      answerId: 'a1',
      threadId,
      question: ' How do I connect? ',
      answer,
      sources,
    });
    const outcome = await verifyAnswer(
      { feedback: coordination, verifiedAnswers },
      { answerId: 'a1', threadId, scope: 'chat:W1:C1', by: 'U-ADA', at: '2026-12-01T10:00:00.000Z' },
    );
    expect(outcome.kind).toBe('verified');
    const [stored] = await verifiedAnswers.listVerifiedAnswers();
    if (!stored) throw new Error('nothing was verified');
    return stored;
  };

  it('keeps every source in order, with its pages and document id, and the numbers that point at them', async () => {
    const thread: Source = { file: 'this thread', docId: '', pages: [1, 1] };
    const stored = await verifyDelivered('Open the client [1], then sign in [2][3].', [
      source(1),
      source(2),
      thread,
    ]);
    expect(stored).toMatchObject({ question: 'How do I connect?', scope: 'chat:W1:C1', verifiedBy: 'U-ADA' });
    expect(stored.answer).toBe('Open the client [1], then sign in [2][3].');
    expect(stored.sources).toEqual([
      { file: 'doc-1.pdf', pages: [1, 2], documentId: 'sha-1' },
      { file: 'doc-2.pdf', pages: [2, 3], documentId: 'sha-2' },
      { file: 'this thread', pages: [1, 1] },
    ]);

    // Served again: the same sources, numbered as the text cites them.
    const served = verifiedAnswerOf(stored);
    expect(served.citesByNumber).toBe(true);
    expect(served.sources.map((each) => each.file)).toEqual(['doc-1.pdf', 'doc-2.pdf', 'this thread']);
    expect(served.markdown).toContain('Open the client [1], then sign in [2][3].');
    expect(served.markdown).toContain(
      '- [1] doc-1.pdf (p. 1–2)\n- [2] doc-2.pdf (p. 2–3)\n- [3] this thread (p. 1)',
    );
  });

  it(`keeps at most ${maxVerifiedSources} sources, and drops every number once one points past them`, async () => {
    const many = Array.from({ length: maxVerifiedSources + 2 }, (_, index) => source(index + 1));
    const stored = await verifyDelivered(`Step one [1]. Step two [${maxVerifiedSources + 1}].`, many);
    expect(stored.sources.map((each) => each.file)).toEqual(
      many.slice(0, maxVerifiedSources).map((each) => each.file),
    );
    expect(stored.answer).toBe('Step one. Step two.');
    const served = verifiedAnswerOf(stored);
    expect(served.citesByNumber).toBeUndefined();
    expect(served.markdown).toContain(`- doc-1.pdf (p. 1–2)`);
    expect(served.markdown).not.toContain('[1]');
  });

  it('drops the numbers when one cites no kept source, and keeps an answer without sources as text', async () => {
    expect((await verifyDelivered('Use the loop [2].', [source(1)])).answer).toBe('Use the loop.');
    await verifiedAnswers.removeVerifiedAnswer((await verifiedAnswers.listVerifiedAnswers())[0]?.id ?? '');
    const none = await verifyDelivered('Nothing cited [1].', []);
    expect(none).toMatchObject({ answer: 'Nothing cited.', sources: [] });
    expect(verifiedAnswerOf(none).markdown).toContain('Sources: none');
  });

  it('withoutCitationNumbers removes the markers and the space before them', () => {
    expect(withoutCitationNumbers('Use a loop [1][2].\nThen stop [3] \nnow')).toBe(
      'Use a loop.\nThen stop\nnow',
    );
  });
});

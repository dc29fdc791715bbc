/**
 * Every answer turn is recorded with its outcome, whatever it ended with (answered, clarification,
 * stopped, failed with its code, cut off midway): the real turn runner, a real `bot.sqlite` with its
 * turn history, an in-test platform port and conversations the test settles.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TurnHistory } from '../../src/core/turn-history.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import { createTurnRunner } from '../../src/turns/turn-runner.ts';
import { makeAnswer } from '../support/make-answer.ts';
import { answerJob, heldConversations, noIngestion, testPlatform } from '../support/turn-ports.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setUp() {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-turn-records-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const store = openSqliteCoordinationStore(directory);
  const records: TurnHistory = openSqliteTurnHistory(directory);
  cleanups.push(
    () => store.close(),
    () => records.close(),
  );
  const conversations = heldConversations();
  const platform = Object.assign(testPlatform('test', { textIntervalMs: 0 }), {
    threadLink: (place: { threadId: string }) => `https://chat.example/${place.threadId}`,
  });
  const turns = createTurnRunner({
    store,
    turnHistory: records,
    conversations,
    ingestion: noIngestion,
    logger: createLogger({ level: 'silent' }),
    answerTimeoutMs: 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
  });
  return { records, conversations, platform, turns, handle: turns.attach(platform) };
}

describe('turn history', () => {
  it('records each turn once settled: answered with its cited documents, asked back, stopped, failed with its code', async () => {
    const { records, conversations, platform, turns, handle } = setUp();
    const asked = async (key: string, text: string, settle: () => void) => {
      handle.answer(answerJob(platform, key, text));
      await vi.waitFor(() => expect(conversations.waiting()).toBe(1));
      settle();
      await vi.waitFor(async () =>
        expect((await records.listTurns()).map((turn) => turn.id)).toContain(key === 'e1' ? 'a1' : key),
      );
    };
    await asked('e1', 'how do loops end?', () =>
      conversations.answerNext({
        kind: 'answer',
        answer: {
          ...makeAnswer('Loops end with done.', [
            { file: 'bash.pdf', docId: 'd1', pages: [3, 3] },
            { file: 'bash.pdf', docId: 'd1', pages: [7, 8] },
            { file: 'faq.md', docId: 'd2', pages: [1, 1] },
          ]),
          id: 'a1',
        },
      }),
    );
    await asked('e2', 'which one?', () =>
      conversations.answerNext({ kind: 'clarification', question: 'Which shell?' }),
    );
    await asked('e3', '', () =>
      conversations.answerNext({ kind: 'stopped', message: 'Your message has no question.' }),
    );
    await asked('e4', 'is the model up?', () =>
      conversations.failNext(new RagentError('OLLAMA_UNREACHABLE', 'The model is not reachable.')),
    );
    await turns.stop(5_000);

    const turnsRecorded = await records.listTurns();
    expect(turnsRecorded.map(({ startedAt, durationMs, ...rest }) => rest)).toEqual([
      {
        id: 'a1',
        platform: 'test',
        scopes: ['shared'],
        threadId: 'test:e1',
        user: 'U1',
        question: 'how do loops end?',
        outcome: 'answered',
        citedDocuments: [
          { documentId: 'd1', name: 'bash.pdf' },
          { documentId: 'd2', name: 'faq.md' },
        ],
        link: 'https://chat.example/test:e1',
      },
      expect.objectContaining({
        id: 'e2',
        question: 'which one?',
        outcome: 'clarification',
        citedDocuments: [],
      }),
      expect.objectContaining({ id: 'e3', outcome: 'stopped' }),
      expect.objectContaining({ id: 'e4', outcome: 'failed', errorCode: 'OLLAMA_UNREACHABLE' }),
    ]);
    for (const turn of turnsRecorded) {
      expect(Number.isNaN(Date.parse(turn.startedAt))).toBe(false);
      expect(turn.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('records an answer cut off midway as failed, with the code of what stopped it', async () => {
    const { records, conversations, platform, turns, handle } = setUp();
    const written: Array<(text: string) => void> = [];
    const handleTurn = conversations.handle;
    conversations.handle = (request, onProgress, options) => {
      if (options?.onText) written.push((text) => options.onText?.(text, 'answer'));
      return handleTurn(request, onProgress, options);
    };
    handle.answer(answerJob(platform, 'e1', 'a long one'));
    await vi.waitFor(() => expect(conversations.waiting()).toBe(1));
    written[0]?.('The first half of the answer');
    await vi.waitFor(() => expect(platform.shown.some((event) => event.what === 'text')).toBe(true));
    conversations.failNext(new RagentError('ANSWER_TIMEOUT', 'The answer took too long.'));
    await turns.stop(5_000);
    expect(platform.replies()).toEqual(['cut-off']);
    expect(await records.listTurns()).toEqual([
      expect.objectContaining({ id: 'e1', outcome: 'failed', errorCode: 'ANSWER_TIMEOUT' }),
    ]);
  });
});

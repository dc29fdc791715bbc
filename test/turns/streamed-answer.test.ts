/**
 * Streaming an answer as it is written, once for every platform: the real turn runner and a real
 * SQLite store, an in-test platform whose surfaces can show text, and conversations whose text and
 * outcome the test writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import type { Conversations, ProgressListener, TurnOptions, TurnResult } from '../../src/core/types.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { createTurnRunner } from '../../src/turns/turn-runner.ts';
import { makeAnswer } from '../support/make-answer.ts';
import { answerJob, inMemoryTurnHistory, noIngestion, testPlatform } from '../support/turn-ports.ts';

const directories: string[] = [];
const stores: CoordinationStore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const store of stores.splice(0)) await store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function openStore(directory?: string): { store: CoordinationStore; directory: string } {
  const at = directory ?? mkdtempSync(path.join(tmpdir(), 'ragent-stream-'));
  if (!directory) directories.push(at);
  const store = openSqliteCoordinationStore(at);
  stores.push(store);
  return { store, directory: at };
}

interface WritingTurn {
  progress: ProgressListener;
  write(textSoFar: string): void;
  end(result?: TurnResult): void;
  fail(error: Error): void;
}

/** Conversations whose one turn the test drives: progress, text as it is written, then the outcome. */
function writingConversations() {
  let started: (turn: WritingTurn) => void = () => {};
  const turn = new Promise<WritingTurn>((resolve) => {
    started = resolve;
  });
  const conversations: Conversations = {
    handle: (_request, onProgress, options: TurnOptions = {}) =>
      new Promise<TurnResult>((resolve, reject) =>
        started({
          progress: (event) => onProgress?.(event),
          write: (text) => options.onText?.(text, 'answer'),
          end: (result) => resolve(result ?? { kind: 'answer', answer: makeAnswer('the whole answer') }),
          fail: reject,
        }),
      ),
    hasThread: async () => false,
    close: async () => {},
  };
  return { conversations, turn };
}

function runner(store: CoordinationStore, conversations: Conversations) {
  return createTurnRunner({
    turnHistory: inMemoryTurnHistory(),
    store,
    conversations,
    ingestion: noIngestion,
    logger: createLogger({ level: 'silent' }),
    answerTimeoutMs: 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
  });
}

describe('a streamed answer', () => {
  it('shows the first text at once, then the latest text at most once per interval, then the answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { conversations, turn } = writingConversations();
    const turns = runner(openStore().store, conversations);
    const platform = testPlatform('test', { textIntervalMs: 1_000 });
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    const writing = await turn;
    writing.progress({ type: 'aggregating' });
    await vi.advanceTimersByTimeAsync(0);
    writing.write('A while');
    await vi.advanceTimersByTimeAsync(0);
    writing.write('A while loop');
    writing.write('A while loop runs');
    // Progress after the text started never covers it.
    writing.progress({ type: 'searching', index: 0, query: 'late' });
    await vi.advanceTimersByTimeAsync(999);
    const texts = () => platform.shown.flatMap((event) => (event.what === 'text' ? [event.text] : []));
    expect(texts()).toEqual(['A while']);
    await vi.advanceTimersByTimeAsync(1);
    expect(texts()).toEqual(['A while', 'A while loop runs']);
    writing.end();
    vi.useRealTimers();
    await turns.stop(5_000);
    expect(platform.shown.map((event) => event.what)).toEqual(['status', 'text', 'text', 'reply']);
    expect(platform.shown[0]?.status).toEqual({ kind: 'working', line: 'Writing the answer…' });
    expect(platform.replies()).toEqual(['answer']);
  });

  it('keeps what was written and says it was cut off when the turn fails mid-stream', async () => {
    const { conversations, turn } = writingConversations();
    const turns = runner(openStore().store, conversations);
    const platform = testPlatform('test', { textIntervalMs: 0 });
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    const writing = await turn;
    writing.write('Loops repeat commands');
    writing.fail(new RagentError('OLLAMA_UNREACHABLE', 'The model stopped answering. Try again.'));
    await turns.stop(5_000);
    expect(platform.shown.at(-1)?.reply).toEqual({
      kind: 'cut-off',
      text: 'Loops repeat commands',
      notice: 'The answer was cut off: The model stopped answering. Try again.',
      reference: 'ref event-1',
    });
  });

  it('shows the status again when the text is taken back, and a failure then is a plain error', async () => {
    const { conversations, turn } = writingConversations();
    const turns = runner(openStore().store, conversations);
    const platform = testPlatform('test', { textIntervalMs: 0 });
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    const writing = await turn;
    writing.progress({ type: 'searching', index: 0, query: 'loops' });
    await vi.waitFor(() => expect(platform.shown).toHaveLength(1));
    writing.write('Let me look');
    await vi.waitFor(() => expect(platform.shown).toHaveLength(2));
    writing.write('');
    await vi.waitFor(() => expect(platform.shown).toHaveLength(3));
    expect(platform.shown[2]).toMatchObject({
      what: 'status',
      status: { line: 'Searching the documents for “loops”…' },
    });
    writing.fail(new RagentError('OLLAMA_UNREACHABLE', 'The model stopped answering.'));
    await turns.stop(5_000);
    expect(platform.replies()).toEqual(['error']);
  });

  it('records the message the text moved on to, so a crash is told there', async () => {
    const { store, directory } = openStore();
    const { conversations, turn } = writingConversations();
    const turns = runner(store, conversations);
    const platform = testPlatform('test', { textIntervalMs: 0, partLength: 10 });
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    const writing = await turn;
    writing.write('Loops repeat commands');
    await vi.waitFor(() => expect(platform.shown.at(-1)?.location).toMatchObject({ part: '2' }));
    // A crash now: the next process finds the turn at the streamed message.
    await vi.waitFor(async () => {
      const { store: next } = openStore(directory);
      const orphans = await next.adoptOrphanedTurns(platform.name);
      expect(orphans).toEqual([
        expect.objectContaining({
          key: 'event-1',
          location: { thread: 'event-1', status: 'shown', part: '2' },
        }),
      ]);
    });
    writing.end();
    await turns.stop(5_000);
    expect(platform.replies()).toEqual(['answer']);
  });

  it('keeps what was written and says it was cut off when a stop gives up on the turn', async () => {
    const { conversations, turn } = writingConversations();
    const turns = runner(openStore().store, conversations);
    const platform = testPlatform('test', { textIntervalMs: 0 });
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    const writing = await turn;
    writing.write('Half an answer');
    await vi.waitFor(() => expect(platform.shown).toHaveLength(1));
    expect(await turns.stop(10)).toEqual({ drained: false, told: 1, untold: 0 });
    expect(platform.shown.at(-1)?.reply).toMatchObject({ kind: 'cut-off', text: 'Half an answer' });
  });
});

/**
 * The runner's steps one at a time (src/turns/claim-and-begin.ts, deliver-by-deadline.ts,
 * record-answer.ts), against a real SQLite coordination store and the in-test platform port: what
 * each step writes, shows and leaves alone, including the paths the whole-runner tests
 * (turn-runner.test.ts) only pass through — a late failure after the overdue notice, a turn left to
 * another replica, a claim whose write fails.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../src/core/chat-platform.ts';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { claimAndBegin } from '../../src/turns/claim-and-begin.ts';
import { deliverByDeadline } from '../../src/turns/deliver-by-deadline.ts';
import { createPlatformBudgets } from '../../src/turns/platform-budgets.ts';
import { createRunnerContext, type RunningJob } from '../../src/turns/runner-context.ts';
import { showProgress } from '../../src/turns/show-progress.ts';
import { makeAnswer } from '../support/make-answer.ts';
import {
  answerJob,
  heldConversations,
  inMemoryTurnHistory,
  noIngestion,
  testPlatform,
} from '../support/turn-ports.ts';

const log = createLogger({ level: 'silent' });
const directories: string[] = [];
const stores: CoordinationStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function openStore(): CoordinationStore {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-steps-'));
  directories.push(directory);
  const store = openSqliteCoordinationStore(directory);
  stores.push(store);
  return store;
}

/** The runner's shared state around one platform and one answer job, as `runAnswer` builds it. */
async function oneAnswer(options: { deadlineMs?: number; store?: CoordinationStore } = {}) {
  const store = options.store ?? openStore();
  const context = createRunnerContext({
    store,
    turnHistory: inMemoryTurnHistory(),
    conversations: heldConversations(),
    ingestion: noIngestion,
    logger: log,
    deadlineMs: options.deadlineMs ?? 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
    followUps: false,
  });
  const platform = testPlatform();
  const attached = { platform, budgets: createPlatformBudgets(platform, undefined), stopping: false };
  const job = { ...answerJob(platform, 'event-1', 'how do loops end?'), claim: true };
  const running: RunningJob = {
    platform: platform.name,
    budgets: attached.budgets.of(job.thread.threadId),
    kind: 'answer',
    key: job.key,
    done: Promise.resolve(),
    recorded: false,
    abandoned: false,
    abandonReply: () => ({ kind: 'shutting-down' }),
  };
  const { surface, place } = await job.open();
  const shown = showProgress(context, attached, job, running, surface, log);
  const answer = { job, running, surface, place, shown, startedAt: Date.now() };
  return { store, context, platform, attached, job, running, answer };
}

/** A reply the test settles when it wants. */
function outcomeLater() {
  let settle: (reply: Reply | 'left') => void = () => {};
  const outcome = new Promise<Reply | 'left'>((resolve) => {
    settle = resolve;
  });
  return { outcome, settle };
}

describe('claimAndBegin', () => {
  it('claims the event with its turn record once; a second delivery is refused and confirmed, nothing more', async () => {
    const first = await oneAnswer();
    const confirmed = vi.fn();
    const job = { ...first.job, recorded: confirmed };
    expect(await claimAndBegin(first.context, first.platform, job, first.running, log)).toBe(true);
    expect(first.running.recorded).toBe(true);
    expect(confirmed).toHaveBeenCalledTimes(1);

    const again = { ...first.running, recorded: false };
    expect(await claimAndBegin(first.context, first.platform, job, again, log)).toBe(false);
    // The platform may confirm the duplicate's delivery too: it is handled (by being ignored).
    expect(confirmed).toHaveBeenCalledTimes(2);
    expect(again.recorded).toBe(false);
  });

  it('goes on unrecorded when the write fails, rather than dropping the question', async () => {
    const store = openStore();
    const failing: CoordinationStore = Object.create(store, {
      claimAndBeginTurn: {
        value: () => Promise.reject(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })),
      },
    });
    const { context, platform, job, running } = await oneAnswer({ store: failing });
    expect(await claimAndBegin(context, platform, job, running, log)).toBe(true);
    expect(running.recorded).toBe(false);
  });

  it('takes an adopted answer as recorded already, and claims nothing for it', async () => {
    const { context, platform, job, running, store } = await oneAnswer();
    expect(await claimAndBegin(context, platform, { ...job, adopted: true }, running, log)).toBe(true);
    expect(running.recorded).toBe(true);
    // The event was not claimed by the adoption: a delivery of it still could be.
    expect(await store.claimEvent(job.key)).toBe(true);
  });
});

describe('deliverByDeadline', () => {
  it('delivers the answer that comes first and records it for the feedback export', async () => {
    const { context, attached, answer, platform, store } = await oneAnswer();
    const reply: Reply = {
      kind: 'answer',
      answer: makeAnswer('Loops end with break.'),
      threadId: 'test:event-1',
    };
    await deliverByDeadline(context, attached, answer, Promise.resolve(reply), log);
    expect(platform.replies()).toEqual(['answer']);
    const [recorded] = await store.findAnswers(['answer-1']);
    expect(recorded).toMatchObject({ question: 'how do loops end?', answer: 'Loops end with break.' });
  });

  it('after the overdue notice, records a late answer and shows it, but does not tell a late failure again', async () => {
    const late = await oneAnswer({ deadlineMs: 1 });
    const answered = outcomeLater();
    const delivering = deliverByDeadline(late.context, late.attached, late.answer, answered.outcome, log);
    await vi.waitFor(() => expect(late.platform.replies()).toEqual(['overdue']));
    answered.settle({ kind: 'answer', answer: makeAnswer('Late, but here.'), threadId: 'test:event-1' });
    await delivering;
    expect(late.platform.replies()).toEqual(['overdue', 'answer']);
    expect(await late.store.findAnswers(['answer-1'])).toHaveLength(1);

    const failed = await oneAnswer({ deadlineMs: 1 });
    const failing = outcomeLater();
    const told = deliverByDeadline(failed.context, failed.attached, failed.answer, failing.outcome, log);
    await vi.waitFor(() => expect(failed.platform.replies()).toEqual(['overdue']));
    failing.settle({
      kind: 'error',
      error: new RagentError('INTERNAL', 'It failed.'),
      reference: 'ref event-1',
    });
    await told;
    // The overdue notice already said it did not come: the thread is not told twice.
    expect(failed.platform.replies()).toEqual(['overdue']);
  });

  it('neither tells nor records a turn left to another replica, and marks it abandoned', async () => {
    const { context, attached, answer, platform, running, store } = await oneAnswer();
    await deliverByDeadline(context, attached, answer, Promise.resolve('left'), log);
    expect(platform.replies()).toEqual([]);
    expect(running.abandoned).toBe(true);
    expect(await store.findAnswers(['answer-1'])).toEqual([]);
  });

  it('after the overdue notice, a turn left to another replica is not delivered there either', async () => {
    const { context, attached, answer, platform, running } = await oneAnswer({ deadlineMs: 1 });
    const later = outcomeLater();
    const delivering = deliverByDeadline(context, attached, answer, later.outcome, log);
    await vi.waitFor(() => expect(platform.replies()).toEqual(['overdue']));
    later.settle('left');
    await delivering;
    expect(platform.replies()).toEqual(['overdue']);
    expect(running.abandoned).toBe(true);
  });
});

/**
 * The turn runner's lifecycle, once for every platform: against the real runner and a real SQLite
 * coordination store, with an in-test platform port and conversations the test answers. Each
 * platform has its wire-level tests in test/slack and test/discord.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { threadFilesScope } from '../../src/core/ids.ts';
import type { Ingestion } from '../../src/core/types.ts';
import { RagentError, toRagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { singleProcessThreadOrder } from '../../src/stores/single-process-thread-order.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { createTurnRunner, type TurnRunnerOptions } from '../../src/turns/turn-runner.ts';
import {
  answerJob,
  type HeldConversations,
  heldConversations,
  inMemoryTurnHistory,
  noIngestion,
  type TestPlatform,
  testPlatform,
} from '../support/turn-ports.ts';

const { SqliteError } = Database;
const directories: string[] = [];
const stores: CoordinationStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function dataDir(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-turns-'));
  directories.push(directory);
  return directory;
}

function openStore(directory: string): CoordinationStore {
  const store = openSqliteCoordinationStore(directory);
  stores.push(store);
  return store;
}

/** A store that fails at the steps named in `failures` (each listed step once, in order of calls). */
function failingStore(store: CoordinationStore, failures: Array<keyof CoordinationStore>): CoordinationStore {
  const fail = (step: keyof CoordinationStore) => {
    const index = failures.indexOf(step);
    if (index < 0) return;
    failures.splice(index, 1);
    throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  };
  const failing: CoordinationStore = {
    replicaId: store.replicaId,
    claimEvent: async (key) => {
      fail('claimEvent');
      return store.claimEvent(key);
    },
    releaseEvent: (key) => store.releaseEvent(key),
    claimAndBeginTurn: async (turn) => {
      fail('claimAndBeginTurn');
      return store.claimAndBeginTurn(turn);
    },
    beginTurn: async (turn) => {
      fail('beginTurn');
      await store.beginTurn(turn);
    },
    moveTurn: async (key, location) => {
      fail('moveTurn');
      await store.moveTurn(key, location);
    },
    endTurn: async (key) => {
      fail('endTurn');
      await store.endTurn(key);
    },
    adoptOrphanedTurns: (platform) => store.adoptOrphanedTurns(platform),
    linkChannel: (channel, linked) => store.linkChannel(channel, linked),
    unlinkChannel: (channel, linked) => store.unlinkChannel(channel, linked),
    linkedChannels: (channel) => store.linkedChannels(channel),
    recordFeedback: (feedback) => store.recordFeedback(feedback),
    recordAnswer: async (answer) => {
      fail('recordAnswer');
      await store.recordAnswer(answer);
    },
    findAnswers: (answerIds) => store.findAnswers(answerIds),
    listFeedback: (query) => store.listFeedback(query),
    channelSetting: (channel, name) => store.channelSetting(channel, name),
    setChannelSetting: (channel, name, value) => store.setChannelSetting(channel, name, value),
    // The single process's own thread order, over the failing records (it moves the turn through them).
    ...singleProcessThreadOrder({ moveTurn: (key, location) => failing.moveTurn(key, location) }),
    onLost: (listener) => store.onLost(listener),
    close: () => store.close(),
  };
  return failing;
}

function runner(
  store: CoordinationStore,
  conversations: HeldConversations,
  options: Partial<TurnRunnerOptions> = {},
) {
  return createTurnRunner({
    turnHistory: inMemoryTurnHistory(),
    store,
    conversations,
    ingestion: noIngestion,
    logger: createLogger({ level: 'silent' }),
    answerTimeoutMs: 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
    ...options,
  });
}

/** The turns a new process would find left behind on `directory` for `platform`. */
async function orphansOn(directory: string, platform: TestPlatform) {
  return (await openStore(directory).adoptOrphanedTurns(platform.name)).map((turn) => turn.key);
}

describe('turn runner', () => {
  it('claims each event once, records the turn where the thread is, and forgets it once answered', async () => {
    const directory = dataDir();
    const conversations = heldConversations();
    const turns = runner(openStore(directory), conversations);
    const platform = testPlatform();
    const handle = turns.attach(platform);
    expect(await handle.claim('event-1')).toBe(true);
    expect(await handle.claim('event-1')).toBe(false);

    handle.answer(answerJob(platform, 'event-1', 'how do loops end?'));
    await vi.waitFor(() => expect(conversations.waiting()).toBe(1));
    expect(conversations.requests[0]).toMatchObject({
      threadId: 'test:event-1',
      // The channel's scopes, then the thread's own files (turns/thread-files.ts).
      scopes: ['shared', threadFilesScope('test:event-1')],
      text: 'how do loops end?',
    });
    // In flight: recorded at the surface's location (a crash now would be told there).
    const inFlight = await openStore(directory).adoptOrphanedTurns(platform.name);
    expect(inFlight).toEqual([
      expect.objectContaining({ key: 'event-1', location: { thread: 'event-1', status: 'shown' } }),
    ]);

    conversations.answerNext();
    expect(await turns.stop(5_000)).toEqual({ drained: true, told: 0, untold: 0 });
    expect(platform.replies()).toEqual(['answer']);
    expect(await orphansOn(directory, platform)).toEqual([]);
  });

  it('says what failed, with the reference, when the conversation fails', async () => {
    const conversations = heldConversations();
    const turns = runner(openStore(dataDir()), conversations);
    const platform = testPlatform();
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    await vi.waitFor(() => expect(conversations.waiting()).toBe(1));
    conversations.failNext(
      new RagentError('OLLAMA_UNREACHABLE', 'The model is not reachable. Start Ollama.'),
    );
    await turns.stop(5_000);
    const reply = platform.shown.at(-1)?.reply;
    expect(reply).toMatchObject({
      kind: 'error',
      reference: 'ref event-1',
      error: { code: 'OLLAMA_UNREACHABLE' },
    });
  });

  it('tells the thread when the answer is overdue, and still delivers the late answer', async () => {
    const conversations = heldConversations();
    const turns = runner(openStore(dataDir()), conversations, { answerTimeoutMs: 0, deadlineGraceMs: 20 });
    const platform = testPlatform();
    turns.attach(platform).answer(answerJob(platform, 'event-1'));
    await vi.waitFor(() => expect(platform.replies()).toEqual(['overdue']));
    conversations.answerNext();
    await turns.stop(5_000);
    expect(platform.replies()).toEqual(['overdue', 'answer']);
  });

  it('tells the thread where it was asked when the acknowledgement cannot be shown', async () => {
    const directory = dataDir();
    const turns = runner(openStore(directory), heldConversations());
    const platform = testPlatform();
    const job = answerJob(platform, 'event-1');
    turns.attach(platform).answer({
      ...job,
      open: () => Promise.reject(new RagentError('PERMISSION_DENIED', 'I cannot start a thread here.')),
    });
    await turns.stop(5_000);
    expect(platform.shown).toEqual([
      { location: { thread: 'event-1' }, what: 'reply', reply: expect.objectContaining({ kind: 'error' }) },
    ]);
    expect(await orphansOn(directory, platform)).toEqual([]);
  });

  describe('a storage failure never leaves a thread silent', () => {
    it.each<[string, Array<keyof CoordinationStore>]>([
      ['claiming the event', ['claimEvent']],
      ['recording the turn', ['beginTurn']],
      ['moving the record', ['moveTurn']],
      ['recording the delivered answer (for the feedback export)', ['recordAnswer']],
    ])('when %s fails, the thread still gets its answer', async (_step, failures) => {
      const directory = dataDir();
      const conversations = heldConversations({ immediate: true });
      const turns = runner(failingStore(openStore(directory), failures), conversations);
      const platform = testPlatform();
      const handle = turns.attach(platform);
      // A failed claim counts as a first claim: the event is answered (at worst twice), never dropped.
      expect(await handle.claim('event-1')).toBe(true);
      handle.answer(answerJob(platform, 'event-1'));
      await turns.stop(5_000);
      expect(platform.replies()).toEqual(['answer']);
      expect(failures).toEqual([]);
      expect(await orphansOn(directory, platform)).toEqual([]);
    });

    it('when claiming the event and recording its turn in one write fails, the thread still gets its answer', async () => {
      const directory = dataDir();
      const failures: Array<keyof CoordinationStore> = ['claimAndBeginTurn'];
      const turns = runner(
        failingStore(openStore(directory), failures),
        heldConversations({ immediate: true }),
      );
      const platform = testPlatform();
      turns.attach(platform).answer({ ...answerJob(platform, 'event-1'), claim: true });
      await turns.stop(5_000);
      expect(platform.replies()).toEqual(['answer']);
      expect(failures).toEqual([]);
      expect(await orphansOn(directory, platform)).toEqual([]);
    });

    it('a duplicate delivery claimed with its turn gets no second answer', async () => {
      const directory = dataDir();
      const turns = runner(openStore(directory), heldConversations({ immediate: true }));
      const platform = testPlatform();
      const handle = turns.attach(platform);
      handle.answer({ ...answerJob(platform, 'event-1'), claim: true });
      await vi.waitFor(() => expect(platform.replies()).toEqual(['answer']));
      handle.answer({ ...answerJob(platform, 'event-1'), claim: true });
      // The barrier: a later event's answer, so the duplicate was handled before it.
      handle.answer({ ...answerJob(platform, 'event-2'), claim: true });
      await vi.waitFor(() => expect(platform.replies()).toEqual(['answer', 'answer']));
      await turns.stop(5_000);
      expect(platform.replies()).toEqual(['answer', 'answer']);
    });

    it('when forgetting the turn fails, it is retried, so no false "restarted" follows', async () => {
      const directory = dataDir();
      const failures: Array<keyof CoordinationStore> = ['endTurn'];
      const turns = runner(
        failingStore(openStore(directory), failures),
        heldConversations({ immediate: true }),
      );
      const platform = testPlatform();
      const handle = turns.attach(platform);
      handle.answer(answerJob(platform, 'event-1'));
      await vi.waitFor(() => expect(platform.replies()).toEqual(['answer']));
      expect(failures).toEqual([]);
      handle.answer(answerJob(platform, 'event-2'));
      await turns.stop(5_000);
      expect(platform.replies()).toEqual(['answer', 'answer']);
      expect(await orphansOn(directory, platform)).toEqual([]);
    });
  });

  it('on stop, tells the threads it gives up on; one it cannot tell is told by the next start', async () => {
    const directory = dataDir();
    const store = openStore(directory);
    const conversations = heldConversations();
    const turns = runner(store, conversations);
    const reachable = testPlatform('reachable');
    const gone = testPlatform('gone');
    turns.attach(reachable).answer(answerJob(reachable, 'event-1'));
    turns.attach(gone).answer(answerJob(gone, 'event-2'));
    await vi.waitFor(() => expect(conversations.waiting()).toBe(2));
    gone.gone = true;

    expect(await turns.stop(20)).toEqual({ drained: false, told: 1, untold: 1 });
    expect(reachable.replies()).toEqual(['shutting-down']);
    await store.close();
    // The abandoned answers arrive after the store closed: nothing is delivered, nothing throws.
    conversations.answerNext();
    conversations.answerNext();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reachable.replies()).toEqual(['shutting-down']);

    // The next start: the thread that could not be told is told now, once.
    const next = runner(openStore(directory), heldConversations());
    gone.gone = false;
    expect(await next.attach(gone).tellOrphans()).toBe(1);
    expect(gone.replies()).toEqual(['restarted']);
    expect(await next.attach(reachable).tellOrphans()).toBe(0);
  });

  it('after a crash, tells each thread what was cut short: ask again, or which files were not added', async () => {
    const directory = dataDir();
    const crashed = openStore(directory);
    await crashed.beginTurn({
      key: 'answer',
      platform: 'test',
      kind: 'answer',
      location: { thread: 'A' },
      startedAt: 2,
    });
    await crashed.beginTurn({
      key: 'ingest',
      platform: 'test',
      kind: 'ingest',
      location: { thread: 'B', file: 'b.pdf', added: '["a.pdf"]', notAdded: '["b.pdf","c.pdf"]' },
      startedAt: 1,
    });
    const platform = testPlatform();
    const turns = runner(openStore(directory), heldConversations());
    expect(await turns.attach(platform).tellOrphans()).toBe(2);
    expect(platform.shown.map((event) => [event.location.thread, event.reply])).toEqual([
      [
        'B',
        {
          kind: 'interrupted-ingest',
          ingest: { file: 'b.pdf', added: ['a.pdf'], notAdded: ['b.pdf', 'c.pdf'] },
        },
      ],
      ['A', { kind: 'restarted' }],
    ]);
    expect(await orphansOn(directory, platform)).toEqual([]);
  });

  it('runs an ingest job through the same lifecycle: progress, result, record per file', async () => {
    const directory = dataDir();
    const store = openStore(directory);
    const platform = testPlatform();
    let recordedDuringSecond: string[] = [];
    const ingestion: Ingestion = {
      ...noIngestion,
      ingest: async (request, onProgress) => {
        onProgress?.({ stage: 'reading', done: 1, total: 1, unit: 'pages' });
        const document = {
          id: 'd'.repeat(64),
          name: request.name,
          scope: request.scope,
          pages: 1,
          bytes: request.bytes.byteLength,
          parents: 1,
          children: 2,
          uploader: request.uploader,
          ingestedAt: '2026-12-01T00:00:00Z',
          embeddingModel: null,
        };
        return { status: 'ingested', document, seconds: 0.1 };
      },
    };
    const turns = createTurnRunner({
      turnHistory: inMemoryTurnHistory(),
      store,
      conversations: heldConversations(),
      ingestion,
      logger: createLogger({ level: 'silent' }),
      answerTimeoutMs: 60_000,
    });
    turns.attach(platform).ingest({
      key: 'ingest-1',
      reference: 'ref ingest-1',
      scope: 'test:team',
      uploader: 'U1',
      files: [
        { name: 'a.pdf', download: async () => new Uint8Array([1]) },
        {
          name: 'b.pdf',
          download: async () => {
            const [turn] = await openStore(directory).adoptOrphanedTurns(platform.name);
            recordedDuringSecond = [turn?.location.file ?? '', turn?.location.added ?? ''];
            throw new RagentError('FILE_UNSUPPORTED', 'b.pdf is not a PDF.');
          },
        },
      ],
      open: async (first) => {
        expect(first).toEqual({
          kind: 'ingest',
          files: [
            { name: 'a.pdf', state: 'waiting' },
            { name: 'b.pdf', state: 'waiting' },
          ],
        });
        return platform.surface({ thread: 'I' });
      },
    });
    await turns.stop(5_000);
    expect(recordedDuringSecond).toEqual(['b.pdf', '["a.pdf"]']);
    const result = platform.shown.at(-1)?.reply;
    expect(result?.kind).toBe('ingest-result');
    expect(result?.kind === 'ingest-result' && result.files.map((file) => file.state)).toEqual([
      'added',
      'failed',
    ]);
  });

  it('says a full disk plainly when an answer fails on a disk I/O error (SQLite on a full disk)', async () => {
    const platform = testPlatform();
    const conversations = heldConversations();
    const turns = createTurnRunner({
      store: openStore(dataDir()),
      conversations,
      ingestion: noIngestion,
      logger: createLogger({ level: 'silent' }),
      answerTimeoutMs: 60_000,
      turnHistory: inMemoryTurnHistory(),
    });
    turns.attach(platform).answer(answerJob(platform, 'full-disk'));
    await vi.waitFor(() => expect(conversations.waiting()).toBe(1));
    conversations.failNext(new SqliteError('disk I/O error', 'SQLITE_IOERR_WRITE'));
    await turns.stop(5_000);
    const reply = platform.shown.at(-1)?.reply;
    expect(reply?.kind === 'error' && reply.error.code).toBe('DISK_FULL');
    expect(reply?.kind === 'error' && reply.error.message).toContain('data directory needs free space');
    // The graph wraps what it cannot name the same way.
    expect(
      toRagentError(
        new SqliteError('disk I/O error', 'SQLITE_IOERR_SHMSIZE'),
        'Answering failed unexpectedly.',
      ).code,
    ).toBe('DISK_FULL');
  });

  it('says a full disk or an unwritable data directory plainly, with its own code, when an ingest fails on it', async () => {
    const platform = testPlatform();
    const failures: Record<string, Error> = {
      'full.pdf': Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }),
      'readonly.pdf': Object.assign(new Error("EROFS: read-only file system, open 'x'"), { code: 'EROFS' }),
      'denied.pdf': new Error('wrapped', {
        cause: Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }),
      }),
    };
    const ingestion: Ingestion = {
      ...noIngestion,
      ingest: async (request) => {
        throw failures[request.name] ?? new Error('unexpected');
      },
    };
    const turns = createTurnRunner({
      turnHistory: inMemoryTurnHistory(),
      store: openStore(dataDir()),
      conversations: heldConversations(),
      ingestion,
      logger: createLogger({ level: 'silent' }),
      answerTimeoutMs: 60_000,
    });
    turns.attach(platform).ingest({
      key: 'ingest-storage',
      reference: 'ref',
      scope: 'test:team',
      uploader: 'U1',
      files: Object.keys(failures).map((name) => ({ name, download: async () => new Uint8Array([1]) })),
      open: async () => platform.surface({ thread: 'S' }),
    });
    await turns.stop(5_000);
    const result = platform.shown.at(-1)?.reply;
    const errors = result?.kind === 'ingest-result' ? result.files : [];
    expect(errors.map((file) => (file.state === 'failed' ? file.error.code : file.state))).toEqual([
      'DISK_FULL',
      'DATA_NOT_WRITABLE',
      'DATA_NOT_WRITABLE',
    ]);
    for (const file of errors) {
      const message = file.state === 'failed' ? file.error.message : '';
      expect(message).toMatch(/disk is full|read-only or not writable/);
      expect(message).toContain('Tell the operator');
      expect(message).not.toContain('details are in the log');
    }
  });
});

/**
 * The one turn runner with replicas: two or three runners in this process, each with its own
 * PostgreSQL connections (its own replica id and liveness lock) on one real database, its own test
 * platform and conversations. A replica is killed the hard way: its backends are terminated.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PlatformTurns, TurnRunner } from '../../src/core/chat-platform.ts';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../src/stores/postgres/postgres-coordination-store.ts';
import { createTurnRunner } from '../../src/turns/turn-runner.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import {
  answerJob,
  type HeldConversations,
  heldConversations,
  inMemoryTurnHistory,
  noIngestion,
  type TestPlatform,
  testPlatform,
} from '../support/turn-ports.ts';

interface Replica {
  id: string;
  database: PostgresDatabase;
  store: CoordinationStore;
  conversations: HeldConversations;
  platform: TestPlatform & { stoppedTaking: number };
  runner: TurnRunner;
  turns: PlatformTurns;
}

let url: string;
let admin: pg.Client;
const replicas: Replica[] = [];

beforeEach(async () => {
  url = await createTestDatabase();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
});

afterEach(async () => {
  for (const each of replicas.splice(0)) {
    await each.runner.stop(200);
    await each.store.close();
    await each.database.close();
  }
  await admin.end();
});

async function replica(id: string, sweepIntervalMs = 50): Promise<Replica> {
  const database = await openDatabase({ url, poolSize: 4, replicaId: id });
  const store = createPostgresCoordinationStore(database, { orderRetryMs: 200 });
  const conversations = heldConversations();
  const platform = Object.assign(testPlatform('test'), { stoppedTaking: 0 });
  platform.stopTaking = async () => {
    platform.stoppedTaking++;
  };
  const runner = createTurnRunner({
    turnHistory: inMemoryTurnHistory(),
    store,
    conversations,
    ingestion: noIngestion,
    logger: createLogger({ level: 'silent' }),
    answerTimeoutMs: 60_000,
    sweepIntervalMs,
  });
  const turns = runner.attach(platform);
  // As an adapter does once connected: from then on the platform is swept.
  await turns.tellOrphans();
  const created = { id, database, store, conversations, platform, runner, turns };
  replicas.push(created);
  return created;
}

/** Kills a replica as if its machine died: every backend of it is terminated. */
async function kill(victim: Replica): Promise<void> {
  const lost = new Promise<void>((resolve) => victim.database.onLost(() => resolve()));
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1`,
    [`ragent ${victim.id}`],
  );
  await lost;
}

async function turnState(key: string): Promise<string | undefined> {
  const { rows } = await admin.query('SELECT state FROM ragent_turns_in_flight WHERE key = $1', [key]);
  return rows[0]?.state;
}

async function turnsLeft(): Promise<number> {
  const { rows } = await admin.query('SELECT count(*)::int AS count FROM ragent_turns_in_flight');
  return rows[0].count;
}

const replies = (platform: TestPlatform, kind: string) =>
  platform.shown.filter((event) => event.reply?.kind === kind).map((event) => event.location.thread);

describe('turns across replicas', () => {
  it('starts a thread’s second message, landed on the other replica, only after the first finished', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const thread = { threadId: 'slack:T1:C1:100.000001' };
    a.turns.answer(answerJob(a.platform, 'm1', 'first', { ...thread, position: '100.000001' }));
    await vi.waitFor(() => expect(a.conversations.requests).toHaveLength(1));
    b.turns.answer(answerJob(b.platform, 'm2', 'second', { ...thread, position: '100.000002' }));
    // B shows that it waits for the earlier message, and does not start it.
    await vi.waitFor(() =>
      expect(b.platform.shown.map((event) => event.status)).toContainEqual({
        kind: 'working',
        line: 'Waiting for the previous message in this thread to be answered…',
      }),
    );
    expect(await turnState('m2')).toBe('queued');
    expect(b.conversations.requests).toHaveLength(0);

    a.conversations.answerNext();
    await vi.waitFor(() =>
      expect(b.conversations.requests.map((request) => request.text)).toEqual(['second']),
    );
    // The first answer was delivered before the second turn started.
    expect(a.platform.replies()).toEqual(['answer']);
    b.conversations.answerNext();
    await vi.waitFor(() => expect(b.platform.replies()).toEqual(['answer']));
    await vi.waitFor(async () => expect(await turnsLeft()).toBe(0));
  });

  it('tells a killed replica’s running threads to ask again exactly once, and answers its queued turn', async () => {
    const a = await replica('a');
    const survivors = [await replica('b'), await replica('c')];
    const t1 = { threadId: 'slack:T1:C1:1.0' };
    a.turns.answer(answerJob(a.platform, 'k1', 'one', { ...t1, position: '1.000001' }));
    a.turns.answer(
      answerJob(a.platform, 'k3', 'three', { threadId: 'slack:T1:C1:3.0', position: '3.000001' }),
    );
    await vi.waitFor(() => expect(a.conversations.requests).toHaveLength(2));
    a.turns.answer(answerJob(a.platform, 'k2', 'two', { ...t1, position: '1.000002' }));
    await vi.waitFor(async () => expect(await turnState('k2')).toBe('queued'));

    await kill(a);
    // The queued turn is answered by whichever survivor adopted it.
    await vi.waitFor(() =>
      expect(survivors.flatMap((each) => each.conversations.requests.map((request) => request.text))).toEqual(
        ['two'],
      ),
    );
    const adopter = survivors.find((each) => each.conversations.requests.length === 1)!;
    adopter.conversations.answerNext();
    await vi.waitFor(async () => expect(await turnsLeft()).toBe(0));
    // Barrier: nothing is left for any sweeper.
    expect(await Promise.all(survivors.map((each) => each.turns.tellOrphans()))).toEqual([0, 0]);

    const restarted = survivors.flatMap((each) => replies(each.platform, 'restarted'));
    expect(restarted.sort()).toEqual(['k1', 'k3']);
    expect(survivors.flatMap((each) => replies(each.platform, 'answer'))).toEqual(['k2']);
    // It was answered on the status the dead replica had shown.
    expect(adopter.platform.reopened.find((turn) => turn.key === 'k2')?.location).toEqual({
      thread: 'k2',
      status: 'shown',
    });
    // The dead replica answers nothing it left.
    expect(a.platform.replies()).toEqual([]);
  });

  it('answers a message delivered to both replicas once (the runner claims it with the turn record)', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const thread = { threadId: 't', position: '1' };
    a.turns.answer({ ...answerJob(a.platform, 'twice', 'question', thread), claim: true });
    b.turns.answer({ ...answerJob(b.platform, 'twice', 'question', thread), claim: true });
    await vi.waitFor(() =>
      expect([...a.conversations.requests, ...b.conversations.requests]).toHaveLength(1),
    );
    // Barrier: the event is claimed for good, and both runners drained.
    expect(await a.turns.claim('twice')).toBe(false);
    for (const each of [a, b]) each.conversations.answerNext();
    await Promise.all([a.runner.stop(5_000), b.runner.stop(5_000)]);
    expect([...a.platform.replies(), ...b.platform.replies()]).toEqual(['answer']);
    expect(await turnsLeft()).toBe(0);
  });

  it('on a stop, leaves an answer still waiting for its thread to a replica that lives on', async () => {
    const a = await replica('a');
    const b = await replica('b');
    a.turns.answer(answerJob(a.platform, 's1', 'one', { threadId: 't', position: '1' }));
    await vi.waitFor(() => expect(a.conversations.requests).toHaveLength(1));
    a.turns.answer(answerJob(a.platform, 's2', 'two', { threadId: 't', position: '2' }));
    await vi.waitFor(async () => expect(await turnState('s2')).toBe('queued'));
    expect(await a.runner.stop(100)).toEqual({ drained: false, told: 1, untold: 0, released: 1 });
    expect(a.platform.replies()).toEqual(['shutting-down']);
    expect(await turnState('s2')).toBe('queued');
    // A is gone: B answers the turn A released, on the status A showed.
    replicas.splice(replicas.indexOf(a), 1);
    await a.store.close();
    await a.database.close();
    await vi.waitFor(() => expect(b.conversations.requests.map((request) => request.text)).toEqual(['two']));
    b.conversations.answerNext();
    await vi.waitFor(() => expect(b.platform.replies()).toEqual(['answer']));
    expect(b.platform.shown.at(-1)?.location).toEqual({ thread: 's2', status: 'shown' });
    await vi.waitFor(async () => expect(await turnsLeft()).toBe(0));
  });

  it('never touches a live replica’s turns', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    a.turns.answer(answerJob(a.platform, 'live', 'question', { threadId: 't', position: '1' }));
    await vi.waitFor(() => expect(a.conversations.requests).toHaveLength(1));
    // Sweeps (B's own, and one more by hand as a barrier) find nothing to take.
    await vi.waitFor(async () => expect(await turnState('live')).toBe('running'));
    expect(await b.turns.tellOrphans()).toBe(0);
    a.conversations.answerNext();
    await vi.waitFor(() => expect(a.platform.replies()).toEqual(['answer']));
    expect(b.platform.shown).toEqual([]);
    expect(b.platform.reopened).toEqual([]);
  });

  it('stops taking work when its database connection is lost; its answer in flight still finishes', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    expect(await a.turns.claim('before')).toBe(true);
    a.turns.answer(answerJob(a.platform, 'flight', 'question', { threadId: 't', position: '1' }));
    await vi.waitFor(() => expect(a.conversations.requests).toHaveLength(1));
    await kill(a);
    expect(a.turns.stopping).toBe(true);
    expect(a.platform.stoppedTaking).toBe(1);
    // A new event is left to the other replicas, which still take it.
    expect(await a.turns.claim('after')).toBe(false);
    expect(await b.turns.claim('after')).toBe(true);
    expect(b.turns.stopping).toBe(false);
    a.conversations.answerNext();
    await vi.waitFor(() => expect(a.platform.replies()).toEqual(['answer']));
  });
});

/**
 * What only the Postgres coordination store does (replicas), against a real PostgreSQL; two opened
 * databases = two replicas. The ports' contracts, shared with SQLite, run in postgres-ports.test.ts.
 */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../src/stores/postgres/postgres-coordination-store.ts';
import { withIngestLock } from '../../src/stores/postgres/session-locks.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

let url: string;
const opened: PostgresDatabase[] = [];

async function replica(replicaId: string, eventTtlMs?: number) {
  const database = await openDatabase({ url, poolSize: 4, replicaId });
  opened.push(database);
  const store = createPostgresCoordinationStore(database, eventTtlMs === undefined ? {} : { eventTtlMs });
  return { database, store };
}

/** Kills a replica the hard way: its backends are terminated, as if its machine died. */
async function kill(database: PostgresDatabase): Promise<void> {
  const lost = new Promise<void>((resolve) => database.onLost(() => resolve()));
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1`,
    [`ragent ${database.replicaId}`],
  );
  await admin.end();
  await lost;
}

beforeEach(async () => {
  url = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.close()));
});

const location = (channel: string) => ({ channel, status: `${channel}-status` });

describe('Postgres coordination store', () => {
  it('forgets a claim after its time to live, and only then', async () => {
    const { store } = await replica('a', 200);
    expect(await store.claimEvent('late-retry')).toBe(true);
    expect(await store.claimEvent('late-retry')).toBe(false);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("UPDATE ragent_event_claims SET claimed_at = now() - interval '1 second'");
    await admin.end();
    expect(await store.claimEvent('late-retry')).toBe(true);
    expect(await store.claimEvent('late-retry')).toBe(false);
  });

  it('begins, moves and ends turns; a live replica never adopts its own or a live one’s turns', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    await a.store.beginTurn({
      key: 'k1',
      platform: 'slack',
      kind: 'answer',
      location: location('C1'),
      startedAt: 1,
    });
    await a.store.moveTurn('k1', location('C1-moved'));
    await b.store.beginTurn({
      key: 'k2',
      platform: 'slack',
      kind: 'ingest',
      location: location('C2'),
      startedAt: 2,
    });
    expect(await a.store.adoptOrphanedTurns('slack')).toEqual([]);
    expect(await b.store.adoptOrphanedTurns('slack')).toEqual([]);
    await a.store.endTurn('k1');
    await a.store.close();
    await a.store.endTurn('k2'); // after close: a no-op
    await kill(b.database);
    const c = await replica('c');
    expect(await c.store.adoptOrphanedTurns('slack')).toEqual([
      { key: 'k2', platform: 'slack', kind: 'ingest', owner: 'c', location: location('C2'), startedAt: 2 },
    ]);
  });

  it('adopts only a dead replica’s turns, oldest first, exactly once among the survivors', async () => {
    const [a, b, c] = [await replica('a'), await replica('b'), await replica('c')];
    await a.store.beginTurn({
      key: 'a1',
      platform: 'slack',
      kind: 'answer',
      location: location('A'),
      startedAt: 10,
    });
    await b.store.beginTurn({
      key: 'b2',
      platform: 'slack',
      kind: 'answer',
      location: location('B2'),
      startedAt: 30,
    });
    await b.store.beginTurn({
      key: 'b1',
      platform: 'slack',
      kind: 'answer',
      location: location('B1'),
      startedAt: 20,
    });
    await b.store.beginTurn({
      key: 'b3',
      platform: 'discord',
      kind: 'answer',
      location: location('B3'),
      startedAt: 5,
    });
    await kill(b.database);
    const [byA, byC] = await Promise.all([
      a.store.adoptOrphanedTurns('slack'),
      c.store.adoptOrphanedTurns('slack'),
    ]);
    const adopted = [...byA, ...byC];
    expect(adopted.map((turn) => turn.key).sort()).toEqual(['b1', 'b2']);
    const winner = byA.length > 0 ? byA : byC;
    expect(winner.map((turn) => turn.key)).toEqual(['b1', 'b2']);
    expect(winner.every((turn) => turn.owner === (byA.length > 0 ? 'a' : 'c'))).toBe(true);
    // Now owned by a live replica: nobody adopts them again; the other platform's turn waits for its sweeper.
    expect(await a.store.adoptOrphanedTurns('slack')).toEqual([]);
    expect(await c.store.adoptOrphanedTurns('slack')).toEqual([]);
    expect((await c.store.adoptOrphanedTurns('discord')).map((turn) => turn.key)).toEqual(['b3']);
  });

  it('adopts the turns of an earlier run of the same replica id (a restart)', async () => {
    const first = await replica('same');
    await first.store.beginTurn({ key: 'old', platform: 'discord', kind: 'answer', location: location('D') });
    await first.database.close();
    const second = await replica('same');
    expect((await second.store.adoptOrphanedTurns('discord')).map((turn) => turn.key)).toEqual(['old']);
  });

  it('records feedback once per answer and user, and lists it by thread and since', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    await a.store.recordFeedback({
      threadId: 't1',
      answerId: 'x',
      user: 'u1',
      value: 'up',
      at: '2026-01-01T00:00:00Z',
    });
    await b.store.recordFeedback({
      threadId: 't1',
      answerId: 'x',
      user: 'u1',
      value: 'down',
      at: '2026-01-02T00:00:00Z',
    });
    await b.store.recordFeedback({
      threadId: 't2',
      answerId: 'y',
      user: 'u2',
      value: 'up',
      at: '2026-01-03T00:00:00Z',
    });
    expect(await a.store.listFeedback({ threadId: 't1' })).toEqual([
      { threadId: 't1', answerId: 'x', user: 'u1', value: 'down', at: '2026-01-02T00:00:00Z' },
    ]);
    expect((await a.store.listFeedback()).map((feedback) => feedback.answerId)).toEqual(['x', 'y']);
    expect(
      (await a.store.listFeedback({ since: '2026-01-03' })).map((feedback) => feedback.answerId),
    ).toEqual(['y']);
  });

  it('reports a lost database connection', async () => {
    const { database } = await replica('a');
    expect(database.isAlive()).toBe(true);
    await kill(database);
    expect(database.isAlive()).toBe(false);
  });
});

describe('per-thread order across replicas', () => {
  type Replica = Awaited<ReturnType<typeof replica>>;
  const begin = async (on: Replica, key: string, threadId: string, position: string) => {
    const thread = { threadId, position };
    await on.store.beginTurn({ key, platform: 'slack', kind: 'answer', location: location(key), thread });
    return {
      key,
      thread,
      location: { ...location(key), placeholderTs: key },
      answer: {
        text: `question ${key}`,
        place: { threadId, scopes: ['shared'], user: 'U1' },
        reference: key,
      },
    };
  };
  const inOrder = (on: Replica, turn: Awaited<ReturnType<typeof begin>>, work: () => Promise<unknown>) =>
    on.store.runInThreadOrder(turn, work);

  it('runs a thread’s turns one at a time in platform order, whichever replica got them', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const log: string[] = [];
    let running = 0;
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstStarted!: () => void;
    const firstIsRunning = new Promise<void>((resolve) => {
      firstStarted = resolve;
    });
    const turn = (on: Replica, key: string, wait?: Promise<void>) => async () => {
      running++;
      expect(running).toBe(1);
      log.push(`start ${key}`);
      if (key === 'e1') firstStarted();
      if (wait) await wait;
      log.push(`end ${key}`);
      running--;
      await on.store.endTurn(key);
    };
    // Messages 1 (on A), 3 (on A) and 2 (on B) arrive in that order; 1 runs first, then 2, then 3.
    const one = await begin(a, 'e1', 't', '1700000000.000100');
    const three = await begin(a, 'e3', 't', '1700000000.000300');
    const two = await begin(b, 'e2', 't', '1700000000.000200');
    const first = inOrder(a, one, turn(a, 'e1', firstMayEnd));
    const third = inOrder(a, three, turn(a, 'e3'));
    const second = inOrder(b, two, turn(b, 'e2'));
    // Message 1 runs (replica A takes it in its own time); then a turn of another thread on B is the
    // barrier: B had every chance to start message 2 meanwhile, and must not have.
    await firstIsRunning;
    const other = await begin(b, 'f1', 'u', '1');
    expect(await inOrder(b, other, async () => 'other thread')).toEqual({
      ran: true,
      result: 'other thread',
    });
    expect(log).toEqual(['start e1']);
    releaseFirst();
    expect(await Promise.all([first, second, third])).toEqual([
      { ran: true, result: undefined },
      { ran: true, result: undefined },
      { ran: true, result: undefined },
    ]);
    expect(log).toEqual(['start e1', 'end e1', 'start e2', 'end e2', 'start e3', 'end e3']);
  });

  it('keeps a dead replica’s turns in their place: its queued turn is adopted, with what answers it', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    const one = await begin(a, 'e1', 't', '1');
    const two = await begin(a, 'e2', 't', '2');
    const three = await begin(b, 'e3', 't', '3');
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    void inOrder(a, one, async () => {
      started();
      await new Promise(() => {});
    });
    await running;
    const queued = inOrder(a, two, async () => 'never');
    let thirdRan = false;
    const third = inOrder(b, three, async () => {
      thirdRan = true;
    });
    // A's second turn is queued (its status shown): wait until its row says so, then kill A.
    for (;;) {
      const { rows } = await b.database.pool.query(
        "SELECT state FROM ragent_turns_in_flight WHERE key = 'e2'",
      );
      if (rows[0]?.state === 'queued') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await kill(a.database);
    expect(await queued).toEqual({ ran: false, reason: 'lost' });
    const adopted = await b.store.adoptOrphanedTurns('slack');
    expect(adopted.map((turn) => [turn.key, turn.answer?.text])).toEqual([
      ['e1', undefined],
      ['e2', 'question e2'],
    ]);
    expect(adopted[1]).toMatchObject({ thread: { threadId: 't', position: '2' }, location: two.location });
    expect(thirdRan).toBe(false);
    // B tells e1's thread, then answers e2 (now its own) before e3.
    await b.store.endTurn('e1');
    const order: string[] = [];
    const adoptedRun = inOrder(b, two, async () => {
      order.push('e2');
      await b.store.endTurn('e2');
    });
    expect(await adoptedRun).toEqual({ ran: true, result: undefined });
    await third;
    expect(thirdRan).toBe(true);
    expect(order).toEqual(['e2']);
  });

  it('leaves a turn whose record is no longer this replica’s', async () => {
    const { store } = await replica('a');
    const ended = await begin({ store, database: opened[0]! }, 'gone', 't', '1');
    await store.endTurn('gone');
    let ran = false;
    expect(
      await store.runInThreadOrder(ended, async () => {
        ran = true;
      }),
    ).toEqual({ ran: false, reason: 'taken-over' });
    expect(ran).toBe(false);
  });

  it('runs one ingest of a file at a time across replicas', async () => {
    const [a, b] = [await replica('a'), await replica('b')];
    let inside = 0;
    let most = 0;
    const ingest = (database: PostgresDatabase) =>
      withIngestLock(database, 'slack:T1', 'manual.pdf', async () => {
        inside++;
        most = Math.max(most, inside);
        await new Promise((resolve) => setImmediate(resolve));
        await database.pool.query('SELECT 1');
        inside--;
      });
    await Promise.all([ingest(a.database), ingest(b.database), ingest(a.database), ingest(b.database)]);
    expect(most).toBe(1);
  });
});

describe('start-up on an empty database', () => {
  it('four replicas starting at once all come up (migrations under a lock)', async () => {
    const replicas = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((id) => replica(id)));
    expect(new Set(replicas.map((each) => each.database.incarnation)).size).toBe(4);
    const { rows } = await replicas[0]!.database.pool.query('SELECT count(*)::int AS count FROM checkpoints');
    expect(rows[0].count).toBe(0);
  });
});

/**
 * Work serialized across replicas with session-level advisory locks, held on the lock pool (never the
 * statement pool, so waiting here never starves event claims):
 * - `runInThreadOrder`: a thread's turns run one at a time and in platform order, whichever replica
 *   received them. Each message is a `ragent_thread_turns` row (queued → running → done, ordered by
 *   the platform's timestamp); the holder of the thread's lock runs only the thread's oldest open turn.
 *   Turns of dead owners never block a thread: a running one is closed, a queued one skipped.
 * - `withIngestLock`: one ingest of a given (scope, file name) at a time;
 * - `withIndexWriteLock`: one Qdrant write of a given (scope, file name) at a time (wired).
 *
 * A lock dies with its connection, so a crashed replica never keeps a thread or a file locked.
 * To be wired into the turn runner and the ingestion service (see README, "Running several replicas").
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { lockNamespace } from './migrations.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';
import { liveOwners, ownerIsDead } from './postgres-coordination-store.ts';

export interface ThreadTurn {
  threadId: string;
  /** The claimed event's key. */
  turnKey: string;
  /** The platform's timestamp of the message (Slack `ts`, Discord snowflake): order within the thread. */
  position: string | number;
}

let finishedTurns = 0;

/** How long a turn waits between looks when an older turn of its thread is still queued elsewhere. */
const retryMs = 25;

export async function runInThreadOrder<Result>(
  database: PostgresDatabase,
  turn: ThreadTurn,
  work: () => Promise<Result>,
): Promise<Result> {
  const { threadId, turnKey } = turn;
  const position = String(turn.position);
  await withDatabase(database, 'queue a turn', () =>
    database.pool.query(
      `INSERT INTO ragent_thread_turns (thread_id, turn_key, position, state, owner_incarnation)
       VALUES ($1, $2, $3, 'queued', $4) ON CONFLICT (thread_id, turn_key) DO NOTHING`,
      [threadId, turnKey, position, database.incarnation],
    ),
  );
  return withSessionLock(database, lockNamespace.thread, threadId, async (client, unlockAndRelock) => {
    // One statement: close running turns of dead owners, and mark this turn running if it is the
    // thread's oldest open turn (of a live owner, or this replica's).
    for (;;) {
      const { rowCount } = await client.query(
        `WITH live AS MATERIALIZED (${liveOwners}),
         abandoned AS (
           UPDATE ragent_thread_turns turn SET state = 'done', updated_at = now()
           WHERE thread_id = $1 AND state = 'running' AND ${ownerIsDead('turn.owner_incarnation')}),
         oldest AS (
           SELECT turn_key FROM ragent_thread_turns turn
           WHERE thread_id = $1 AND state <> 'done'
             AND (owner_incarnation = $2 OR owner_incarnation IN (SELECT incarnation FROM live))
           ORDER BY position, turn_key LIMIT 1)
         UPDATE ragent_thread_turns SET state = 'running', updated_at = now()
         WHERE thread_id = $1 AND turn_key = $3 AND turn_key = (SELECT turn_key FROM oldest)`,
        [threadId, database.incarnation, turnKey],
      );
      if (rowCount === 1) break;
      // An older turn of this thread is queued on a replica waiting for this lock: let it run first.
      await unlockAndRelock();
    }
    try {
      return await work();
    } finally {
      await client.query(
        "UPDATE ragent_thread_turns SET state = 'done', updated_at = now() WHERE thread_id = $1 AND turn_key = $2",
        [threadId, turnKey],
      );
      // Now and then, forget finished turns (an hour later; they only ever mattered for ordering).
      if (++finishedTurns % 100 === 0) {
        await database.pool.query(
          "DELETE FROM ragent_thread_turns WHERE state = 'done' AND updated_at < now() - interval '1 hour'",
        );
      }
    }
  });
}

/** Runs `work` while holding the cluster-wide lock of ingesting (scope, file name): one ingest at a time. */
export function withIngestLock<Result>(
  database: PostgresDatabase,
  scope: string,
  name: string,
  work: () => Promise<Result>,
): Promise<Result> {
  return withSessionLock(database, lockNamespace.ingest, JSON.stringify([scope, name]), () => work());
}

/**
 * The Qdrant index's own lock on writing (scope, file name) — separate from the ingest lock, so an
 * ingest holding that one can still write (session locks are not shared between connections).
 */
export function withIndexWriteLock<Result>(
  database: PostgresDatabase,
  scope: string,
  name: string,
  work: () => Promise<Result>,
): Promise<Result> {
  return withSessionLock(database, lockNamespace.indexWrite, JSON.stringify([scope, name]), () => work());
}

async function withSessionLock<Result>(
  database: PostgresDatabase,
  namespace: number,
  key: string,
  work: (client: pg.PoolClient, unlockAndRelock: () => Promise<void>) => Promise<Result>,
): Promise<Result> {
  const client = await withDatabase(database, 'wait for a lock', () => database.lockPool.connect());
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  const lock = () =>
    withDatabase(database, 'wait for a lock', () =>
      client.query('SELECT pg_advisory_lock($1, hashtext($2))', [namespace, key]),
    );
  const unlock = () => client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [namespace, key]);
  try {
    await lock().catch((error: Error) => {
      broken = error;
      throw error;
    });
    try {
      return await work(client, async () => {
        await unlock();
        await sleep(retryMs);
        await lock();
      });
    } finally {
      await unlock().catch((error: Error) => {
        broken = error;
      });
    }
  } finally {
    // A connection whose lock state is unknown is thrown away, never reused with a lock still held.
    client.off('error', onError);
    client.release(broken);
  }
}

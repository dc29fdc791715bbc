/**
 * Work serialized across replicas with session-level advisory locks, held on the lock pool (never the
 * statement pool, so waiting here never starves event claims):
 * - `withIngestLock`: one ingest of a given (scope, file name) at a time (the ingestion service's
 *   `withNameLock`, passed in by the composition root);
 * - `withIndexWriteLock`: one Qdrant write of a given (scope, file name) at a time.
 *
 * A lock dies with its connection, so a crashed replica never keeps a file locked. (A thread's order
 * needs no held lock: see postgres-thread-order.ts.)
 */
import { lockNamespace } from './migrations.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

/** Runs `work` while holding the cluster-wide lock of ingesting (scope, file name): one ingest at a time. */
export function withIngestLock<Result>(
  database: PostgresDatabase,
  scope: string,
  name: string,
  work: () => Promise<Result>,
): Promise<Result> {
  return withSessionLock(database, lockNamespace.ingest, JSON.stringify([scope, name]), work);
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
  return withSessionLock(database, lockNamespace.indexWrite, JSON.stringify([scope, name]), work);
}

async function withSessionLock<Result>(
  database: PostgresDatabase,
  namespace: number,
  key: string,
  work: () => Promise<Result>,
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
      return await work();
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

/**
 * Replicas on PostgreSQL: how many are live (those holding their liveness lock, see `liveOwners`),
 * refreshed every few seconds so each replica uses 1 / live of a platform's rate budget; and leases
 * (a platform's shards) as session advisory locks on one dedicated connection per lease kind. A lease
 * dies with that connection: when it is lost (or the replica's liveness connection is), every lease
 * is given up at once and the holder is told, so another replica can take them within seconds.
 */
import type pg from 'pg';
import type { LeaseKind, Leases, Replicas } from '../../core/replicas.ts';
import type { Logger } from '../../logger.ts';
import { toDatabaseError } from './database-errors.ts';
import type { PostgresDatabase } from './open-database.ts';
import { liveOwners } from './postgres-coordination-store.ts';

export interface PostgresReplicasOptions {
  /** How often the count of live replicas is read again (default 5 s). */
  refreshMs?: number;
}

/** Live replicas of the database now (this one included, so at least 1). */
export async function countLiveReplicas(database: Pick<PostgresDatabase, 'pool'>): Promise<number> {
  const { rows } = await database.pool.query<{ live: number }>(
    `SELECT count(DISTINCT incarnation)::int AS live FROM (${liveOwners}) owners`,
  );
  return Math.max(1, rows[0]?.live ?? 1);
}

export async function createPostgresReplicas(
  database: PostgresDatabase,
  logger: Logger,
  options: PostgresReplicasOptions = {},
): Promise<Replicas> {
  let live = 1;
  const refresh = async () => {
    try {
      live = await countLiveReplicas(database);
    } catch (error) {
      // Keep the last count: the next refresh tries again.
      logger.debug({ error: (error as Error).message }, 'could not count the live replicas');
    }
  };
  await refresh();
  const timer = setInterval(() => void refresh(), options.refreshMs ?? 5_000);
  timer.unref();
  const opened = new Set<Leases>();
  return {
    budgetShare: () => 1 / live,
    openLeases: async (kind) => {
      const leases = postgresLeases(database, kind, logger);
      await leases.members();
      opened.add(leases);
      return leases;
    },
    close: async () => {
      clearInterval(timer);
      await Promise.allSettled([...opened].map((leases) => leases.close()));
    },
  };
}

function postgresLeases(database: PostgresDatabase, kind: LeaseKind, logger: Logger): Leases {
  const namespace = kind.leaseNamespace;
  const held = new Set<number>();
  const listeners: Array<(error: Error) => void> = [];
  let session: Promise<pg.Client> | undefined;
  let closed = false;

  /** The lease connection ended (or failed): every lease on it is gone. */
  const lose = (lost: Promise<pg.Client>, error: Error) => {
    if (session !== lost) return;
    session = undefined;
    void lost.then((client) => client.end()).catch(() => {});
    if (closed) return;
    const given = [...held];
    held.clear();
    if (given.length > 0) logger.warn({ leases: given, error: error.message }, 'lost the lease connection');
    for (const listener of listeners) listener(error);
  };

  const connect = (): Promise<pg.Client> => {
    if (session) return session;
    const opening = database.openSession().then(async (client) => {
      client.on('error', (error) => lose(opening, error));
      client.on('end', () => lose(opening, new Error('Connection terminated')));
      // Taking part: counted by every member sharing the ids out, until this connection ends.
      await client.query('SELECT pg_advisory_lock($1, $2)', [kind.memberNamespace, database.incarnation]);
      return client;
    });
    session = opening;
    opening.catch(() => {
      if (session === opening) session = undefined;
    });
    return opening;
  };

  // A replica that lost its liveness lock is dead to the others: it gives its leases up too.
  database.onLost((error) => {
    if (session) lose(session, error);
  });

  return {
    shared: true,
    members: async () => {
      if (closed || !database.isAlive()) return 1;
      const current = connect();
      try {
        const { rows } = await (await current).query<{ members: number }>(
          `SELECT count(*)::int AS members FROM pg_locks
           WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::oid
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          [kind.memberNamespace],
        );
        return Math.max(1, rows[0]?.members ?? 1);
      } catch (error) {
        lose(current, error as Error);
        throw toDatabaseError(error, database.url, `lease ${kind.description}`);
      }
    },
    tryTake: async (id) => {
      if (closed || !database.isAlive()) return false;
      if (held.has(id)) return true;
      const current = connect();
      try {
        const client = await current;
        const { rows } = await client.query<{ taken: boolean }>(
          'SELECT pg_try_advisory_lock($1, $2) AS taken',
          [namespace, id],
        );
        if (!rows[0]?.taken) return false;
        if (session !== current) {
          // The connection was lost meanwhile: the lock went with it.
          return false;
        }
        held.add(id);
        return true;
      } catch (error) {
        lose(current, error as Error);
        throw toDatabaseError(error, database.url, `lease ${kind.description}`);
      }
    },
    release: async (id) => {
      if (!held.delete(id) || !session) return;
      const current = session;
      try {
        await (await current).query('SELECT pg_advisory_unlock($1, $2)', [namespace, id]);
      } catch (error) {
        // The connection is gone, and the lease with it.
        lose(current, error as Error);
      }
    },
    onLost: (listener) => {
      listeners.push(listener);
    },
    close: async () => {
      closed = true;
      held.clear();
      const current = session;
      session = undefined;
      if (current) await current.then((client) => client.end()).catch(() => {});
    },
  };
}

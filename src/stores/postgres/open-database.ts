/**
 * The PostgreSQL connection of a replica (DATABASE_URL): a pool for statements, a small separate pool
 * for session locks that wait (per-thread order, ingests) so those waits never starve claims, and one
 * dedicated connection holding this replica's liveness lock. When that connection is lost, the lock is
 * gone (other replicas may now adopt this replica's turns): `onLost` listeners are told, so the replica
 * stops taking work.
 *
 * A replica that hangs without dying (a stopped process, a blocked event loop, a paused VM) must lose its
 * lock too — its kernel still answers TCP keepalives. The liveness connection therefore sends a heartbeat
 * from the event loop every third of `livenessTimeoutMs`, and the server ends the session once it has
 * been idle that long (`idle_session_timeout`, PostgreSQL 14 and later): a hung replica's threads are
 * taken over, and when it wakes its liveness connection is gone, so it takes no new work.
 *
 * Opening applies ragent's migrations and the LangGraph checkpointer's `setup()` under one advisory lock.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import pg from 'pg';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { databaseAddress, toDatabaseError } from './database-errors.ts';
import { lockNamespace, migrations, schemaVersion } from './migrations.ts';

export interface OpenDatabaseOptions {
  url: string;
  /** Connections of the statement pool (RAGENT_DB_POOL); the lock pool gets as many. */
  poolSize: number;
  replicaId: string;
  logger?: Logger;
  /** Apply missing migrations (default). False: fail with DATABASE_SCHEMA_OLD instead (doctor). */
  migrate?: boolean;
  /** How long this replica may go without a heartbeat before the server drops its liveness (default 15 s). */
  livenessTimeoutMs?: number;
}

export interface PostgresDatabase {
  readonly url: string;
  readonly replicaId: string;
  /** This process's registration: turns it owns carry it; alive while the liveness lock is held. */
  readonly incarnation: number;
  readonly pool: pg.Pool;
  /** Connections that hold session locks while waiting or working. */
  readonly lockPool: pg.Pool;
  /** Whether the liveness connection is still up. */
  isAlive(): boolean;
  /** Called once when the liveness connection is lost. */
  onLost(listener: (error: RagentError) => void): void;
  /** A new dedicated connection of this replica (its caller ends it), e.g. for long-held session locks. */
  openSession(): Promise<pg.Client>;
  close(): Promise<void>;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<PostgresDatabase> {
  const { url, logger } = options;
  const settings = {
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    application_name: `ragent ${options.replicaId}`.slice(0, 63),
  };
  const pool = new pg.Pool({ ...settings, max: options.poolSize });
  const lockPool = new pg.Pool({ ...settings, max: options.poolSize });
  // Idle clients that fail emit on the pool; unhandled, that would end the process.
  for (const each of [pool, lockPool]) {
    each.on('error', (error) => logger?.warn({ error: error.message }, 'PostgreSQL connection failed'));
  }
  // The server drops the liveness lock of a replica whose machine died (no FIN) once these probes go
  // unanswered (about 20 s), so the others take over its threads; a killed process drops it at once.
  const liveness = new pg.Client({
    ...settings,
    keepAlive: true,
    options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=3 -c tcp_keepalives_count=3',
  });
  liveness.on('error', () => {});
  try {
    await liveness.connect();
    await prepareSchema(liveness, pool, options.migrate ?? true, url);
    const { rows } = await liveness.query<{ incarnation: number }>(
      'INSERT INTO ragent_replicas (replica_id) VALUES ($1) RETURNING incarnation',
      [options.replicaId],
    );
    const incarnation = rows[0]!.incarnation;
    await liveness.query('SELECT pg_advisory_lock($1, $2)', [lockNamespace.liveness, incarnation]);
    const heartbeat = await startHeartbeat(liveness, options.livenessTimeoutMs ?? 15_000, logger);
    let alive = true;
    let closing = false;
    const listeners: Array<(error: RagentError) => void> = [];
    const lose = (error: unknown) => {
      if (!alive || closing) return;
      alive = false;
      clearInterval(heartbeat);
      const failure = toDatabaseError(error, url);
      logger?.error(
        { code: failure.code, address: databaseAddress(url) },
        'lost the PostgreSQL connection: this replica takes no new work',
      );
      for (const listener of listeners) listener(failure);
    };
    liveness.on('error', lose);
    liveness.on('end', () => lose(new Error('Connection terminated')));
    logger?.info(
      { address: databaseAddress(url), replicaId: options.replicaId, incarnation },
      'PostgreSQL ready',
    );
    return {
      url,
      replicaId: options.replicaId,
      incarnation,
      pool,
      lockPool,
      isAlive: () => alive,
      onLost: (listener) => {
        listeners.push(listener);
      },
      openSession: async () => {
        const session = new pg.Client(settings);
        // Its owner listens for failures; an unhandled 'error' would end the process.
        session.on('error', () => {});
        await session.connect();
        return session;
      },
      close: async () => {
        if (closing) return;
        closing = true;
        clearInterval(heartbeat);
        // Work still holding a lock connection (a stuck turn) must not hold up the shutdown.
        const lockPoolEnded = lockPool.end();
        await Promise.allSettled([
          liveness.end(),
          pool.end(),
          Promise.race([lockPoolEnded, sleep(2_000, undefined, { ref: false })]),
        ]);
      },
    };
  } catch (error) {
    await Promise.allSettled([liveness.end(), pool.end(), lockPool.end()]);
    throw toDatabaseError(error, url, 'prepare its tables');
  }
}

/**
 * Makes the server end the liveness session after `timeoutMs` without a statement, and sends one every
 * third of that from the event loop. On a server without `idle_session_timeout` (before PostgreSQL 14)
 * only a dead machine or process loses its lock; that is logged once.
 */
async function startHeartbeat(
  client: pg.Client,
  timeoutMs: number,
  logger?: Logger,
): Promise<NodeJS.Timeout> {
  try {
    await client.query(`SET idle_session_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
  } catch (error) {
    logger?.warn(
      { error: (error as Error).message },
      'this PostgreSQL has no idle_session_timeout (before 14): a replica that hangs keeps its threads until it dies',
    );
  }
  const timer = setInterval(
    () => {
      // A failure here also ends the connection: its 'error' / 'end' handlers report the loss.
      client.query('SELECT 1').catch(() => {});
    },
    Math.max(1, Math.round(timeoutMs / 3)),
  );
  timer.unref();
  return timer;
}

async function prepareSchema(client: pg.Client, pool: pg.Pool, migrate: boolean, url: string): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1, 0)', [lockNamespace.migrations]);
  try {
    if (migrate) {
      await client.query(
        'CREATE TABLE IF NOT EXISTS ragent_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
    }
    const { rows } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('ragent_migrations') IS NOT NULL AS present",
    );
    const applied = rows[0]?.present ? await appliedVersion(client) : 0;
    if (applied > schemaVersion) {
      throw new RagentError(
        'DATABASE_SCHEMA_OLD',
        errorMessages.DATABASE_SCHEMA_OLD.newerThanRagent({
          address: databaseAddress(url),
          applied,
          schemaVersion,
        }),
      );
    }
    if (applied < schemaVersion && !migrate) throw schemaOld(url, applied);
    for (let version = applied + 1; version <= schemaVersion; version++) {
      await client.query('BEGIN');
      try {
        await client.query(migrations[version - 1]!);
        await client.query('INSERT INTO ragent_migrations (version) VALUES ($1)', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }
    if (migrate) await new PostgresSaver(pool).setup();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, 0)', [lockNamespace.migrations]).catch(() => {});
  }
}

export async function appliedVersion(client: pg.ClientBase | pg.Pool): Promise<number> {
  const { rows } = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM ragent_migrations',
  );
  return rows[0]?.version ?? 0;
}

export function schemaOld(url: string, applied: number): RagentError {
  return new RagentError(
    'DATABASE_SCHEMA_OLD',
    errorMessages.DATABASE_SCHEMA_OLD.olderThanRagent({
      address: databaseAddress(url),
      applied,
      schemaVersion,
    }),
    { details: { applied, needed: schemaVersion } },
  );
}

/** Runs `work` on a pool client, turning connection failures into DATABASE_* errors. */
export async function withDatabase<Result>(
  database: Pick<PostgresDatabase, 'url'>,
  what: string,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    throw toDatabaseError(error, database.url, what);
  }
}

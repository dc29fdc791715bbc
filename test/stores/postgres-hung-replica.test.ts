/**
 * A replica that hangs without dying loses its liveness on a real PostgreSQL: its event loop stops
 * sending the heartbeat, the server ends the idle liveness session, the lock goes (so the other replicas
 * take over its threads), and when the replica wakes it is told it lost the database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RagentError } from '../../src/errors.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { countLiveReplicas } from '../../src/stores/postgres/postgres-replicas.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

const livenessTimeoutMs = 600;
const opened: PostgresDatabase[] = [];

async function open(url: string, replicaId: string, timeoutMs?: number): Promise<PostgresDatabase> {
  const database = await openDatabase({
    url,
    poolSize: 2,
    replicaId,
    ...(timeoutMs === undefined ? {} : { livenessTimeoutMs: timeoutMs }),
  });
  opened.push(database);
  return database;
}

/** Blocks this thread's event loop, as a hung process would be: no timer runs meanwhile. */
function hang(milliseconds: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, milliseconds);
}

/** Resolves once `check` holds, polling; rejects after `timeoutMs`. */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a replica that hangs without dying', () => {
  afterEach(async () => {
    await Promise.allSettled(opened.splice(0).map((database) => database.close()));
  });

  it('keeps its liveness while its event loop runs: the heartbeat outlasts several idle timeouts', async () => {
    const url = await createTestDatabase();
    const live = await open(url, 'live', livenessTimeoutMs);
    const other = await open(url, 'other');
    // The barrier: the server's own clock says the session has outlived three idle timeouts.
    await until(async () => {
      const { rows } = await other.pool.query<{ lived: boolean }>(
        `SELECT now() - backend_start > make_interval(secs => $1) AS lived FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'ragent live' AND query = 'SELECT 1'`,
        [(3 * livenessTimeoutMs) / 1000],
      );
      return rows[0]?.lived === true;
    }, 'three idle timeouts of heartbeats');
    expect(live.isAlive()).toBe(true);
    expect(await countLiveReplicas(other)).toBe(2);
  });

  it('loses its liveness lock while hung, so the others count it gone, and is told when it wakes', async () => {
    const url = await createTestDatabase();
    const hung = await open(url, 'hung', livenessTimeoutMs);
    const other = await open(url, 'other');
    expect(await countLiveReplicas(other)).toBe(2);
    const lost = new Promise<RagentError>((resolve) => hung.onLost(resolve));

    hang(4 * livenessTimeoutMs);

    await until(async () => (await countLiveReplicas(other)) === 1, 'the hung replica’s lock to go');
    const error = await lost;
    expect(error.code).toMatch(/^DATABASE_/);
    expect(hung.isAlive()).toBe(false);
  });

  it('keeps the lock of a hung replica on the default timeout for longer than a short hang', async () => {
    const url = await createTestDatabase();
    const paused = await open(url, 'paused');
    const other = await open(url, 'other');
    hang(2 * livenessTimeoutMs);
    // A statement on the paused replica's own pool: it is still registered and live.
    await paused.pool.query('SELECT 1');
    expect(paused.isAlive()).toBe(true);
    expect(await countLiveReplicas(other)).toBe(2);
  });
});

/** Cluster-wide model-call slots on a real PostgreSQL: two replicas (two opened databases) share N slots. */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresClusterSlots } from '../../src/stores/postgres/postgres-cluster-slots.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

let url: string;
const opened: PostgresDatabase[] = [];
const logger = createLogger({ level: 'silent' });

async function replica(replicaId: string, slots: number) {
  const database = await openDatabase({ url, poolSize: 3, replicaId });
  opened.push(database);
  return createPostgresClusterSlots(database, { slots, logger, minBackoffMs: 5, maxBackoffMs: 20 });
}

beforeEach(async () => {
  url = await createTestDatabase();
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.close()));
});

describe('cluster-wide model-call slots', () => {
  it('lets N calls run across replicas; the next waits (told once) until one ends', async () => {
    const a = await replica('a', 2);
    const b = await replica('b', 2);
    const first = await a.acquire();
    const second = await b.acquire();
    let waits = 0;
    let granted = false;
    const third = a.acquire({ onWait: () => waits++ }).then((release) => {
      granted = true;
      return release;
    });
    // A later call of the other replica also finds both slots taken and waits.
    const fourth = b.acquire();
    await until(() => waits === 1);
    expect(granted).toBe(false);
    second();
    const releaseThird = await Promise.race([third, fourth]);
    expect(waits).toBe(1);
    first();
    const releaseFourth = await (granted ? fourth : third);
    releaseThird();
    releaseFourth();
    // Everything released: both slots are free again.
    const again = [await a.acquire(), await b.acquire()];
    for (const release of again) release();
  });

  it('frees the slots of a replica whose database session ended (a crash)', async () => {
    const a = await replica('a', 1);
    const b = await replica('b', 1);
    await a.acquire();
    const waiting = b.acquire();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'ragent a'`,
    );
    await admin.end();
    const release = await waiting;
    release();
  });

  it('gives up waiting when the call is aborted, with the abort reason', async () => {
    const a = await replica('a', 1);
    const held = await a.acquire();
    const controller = new AbortController();
    const waiting = a.acquire({ signal: controller.signal });
    controller.abort(new Error('answer deadline'));
    await expect(waiting).rejects.toThrow('answer deadline');
    held();
    (await a.acquire())();
  });
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

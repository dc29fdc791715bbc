/** Replicas on a real PostgreSQL: the budget share follows the live replicas; leases die with their session. */
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseKind, Leases, Replicas } from '../../src/core/replicas.ts';
import { createLogger } from '../../src/logger.ts';
import { openDatabase, type PostgresDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresReplicas } from '../../src/stores/postgres/postgres-replicas.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

/** A lease kind of the test's own (its namespaces are not any real kind's). */
const testLeases: LeaseKind = {
  description: 'a test slot',
  leaseNamespace: 72_617_900,
  memberNamespace: 72_617_901,
};

let url: string;
const opened: Array<{ database: PostgresDatabase; replicas: Replicas }> = [];
const logger = createLogger({ level: 'silent' });

async function replica(replicaId: string) {
  const database = await openDatabase({ url, poolSize: 2, replicaId });
  const replicas = await createPostgresReplicas(database, logger, { refreshMs: 20 });
  opened.push({ database, replicas });
  return { database, replicas };
}

async function terminate(replicaId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1`,
    [`ragent ${replicaId}`],
  );
  await admin.end();
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(async () => {
  url = await createTestDatabase();
});

afterEach(async () => {
  for (const { database, replicas } of opened.splice(0)) {
    await replicas.close();
    await database.close();
  }
});

describe('Postgres replicas', () => {
  it('gives each of two live replicas half of a platform budget, and the whole again when one is gone', async () => {
    const a = await replica('a');
    expect(a.replicas.budgetShare()).toBe(1);
    const b = await replica('b');
    expect(b.replicas.budgetShare()).toBe(1 / 2);
    await until(() => a.replicas.budgetShare() === 1 / 2);
    await terminate('b');
    await until(() => a.replicas.budgetShare() === 1);
  });

  it('leases an id to one replica at a time; a lost session gives it up and tells the holder', async () => {
    const a = await replica('a');
    const b = await replica('b');
    const leasesOfA: Leases = await a.replicas.openLeases(testLeases);
    const leasesOfB: Leases = await b.replicas.openLeases(testLeases);
    expect(await leasesOfA.members()).toBe(2);
    expect(await leasesOfA.tryTake(0)).toBe(true);
    expect(await leasesOfA.tryTake(0)).toBe(true);
    expect(await leasesOfB.tryTake(0)).toBe(false);
    expect(await leasesOfB.tryTake(1)).toBe(true);

    // Released: the other takes it.
    await leasesOfB.release(1);
    expect(await leasesOfA.tryTake(1)).toBe(true);

    // a's sessions end (its machine died): its leases die with them and a is told.
    const lost = new Promise<Error>((resolve) => leasesOfA.onLost(resolve));
    await terminate('a');
    expect((await lost).message).toBeTruthy();
    expect(await leasesOfB.tryTake(0)).toBe(true);
    expect(await leasesOfB.tryTake(1)).toBe(true);
    expect(await leasesOfB.members()).toBe(1);
    // A replica that lost its liveness takes no lease again.
    expect(await leasesOfA.tryTake(2)).toBe(false);
  });
});

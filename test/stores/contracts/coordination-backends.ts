/** The coordination store backends every port contract runs against. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { CoordinationStore } from '../../../src/core/coordination-store.ts';
import { openDatabase, type PostgresDatabase } from '../../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../../src/stores/postgres/postgres-coordination-store.ts';
import { openSqliteCoordinationStore } from '../../../src/stores/sqlite-coordination-store.ts';
import { createTestDatabase } from '../../support/postgres-database.ts';
import type { CoordinationBackend } from './coordination-backend.ts';

/** One process on `<dataDir>/bot.sqlite`: a second store on the same directory is the next process. */
export const sqliteBackend: CoordinationBackend = {
  name: 'SQLite',
  createStorage: async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-coordination-'));
    return {
      open: async () => openSqliteCoordinationStore(directory),
      dispose: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
  lose: undefined,
};

/** The database each Postgres store runs on, to take it away (`lose`). */
const databases = new WeakMap<CoordinationStore, PostgresDatabase>();

/** Replicas on a real PostgreSQL (test/support/postgres-server.ts), each with its own pool and liveness lock. */
export const postgresBackend: CoordinationBackend = {
  name: 'Postgres',
  createStorage: async () => {
    const url = await createTestDatabase();
    return {
      open: async () => {
        const database = await openDatabase({ url, poolSize: 4, replicaId: `replica-${randomUUID()}` });
        const store = createPostgresCoordinationStore(database);
        let closed: Promise<void> | undefined;
        const replica: CoordinationStore = {
          ...store,
          close: () => {
            closed ??= store.close().then(() => database.close());
            return closed;
          },
        };
        databases.set(replica, database);
        return replica;
      },
      dispose: async () => {},
    };
  },
  lose: async (store) => {
    const database = databases.get(store);
    if (!database) throw new Error('not a store of this backend');
    const lost = new Promise<void>((resolve) => database.onLost(() => resolve()));
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = $1`,
        [`ragent ${database.replicaId}`],
      );
    } finally {
      await admin.end();
    }
    await lost;
  },
};

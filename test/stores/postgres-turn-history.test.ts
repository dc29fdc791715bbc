/** The turn history contract (the same spec SQLite runs) against a real PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresTurnHistory } from '../../src/stores/postgres/postgres-turn-history.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { turnHistoryContract } from './contracts/turn-history-contract.ts';

turnHistoryContract('Postgres', async () => {
  const url = await createTestDatabase();
  return {
    // Each store is a replica of its own, with its own pool.
    open: async () => {
      const database = await openDatabase({ url, poolSize: 2, replicaId: `replica-${randomUUID()}` });
      const records = createPostgresTurnHistory(database);
      return { ...records, close: () => records.close().then(() => database.close()) };
    },
    dispose: async () => {},
  };
});

/** The coordination store contract (the same spec SQLite runs) against a real PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../src/stores/postgres/postgres-coordination-store.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { coordinationStoreContract } from '../turns/coordination-store-contract.ts';

coordinationStoreContract('Postgres', async () => {
  const url = await createTestDatabase();
  return {
    // Each store is a replica of its own: its own pool, its own replica id and liveness lock.
    open: async () => {
      const database = await openDatabase({ url, poolSize: 4, replicaId: `replica-${randomUUID()}` });
      const store = createPostgresCoordinationStore(database);
      let closed: Promise<void> | undefined;
      return {
        ...store,
        replicaId: store.replicaId,
        close: () => {
          closed ??= store.close().then(() => database.close());
          return closed;
        },
      };
    },
    dispose: async () => {},
  };
});

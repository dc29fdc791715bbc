/** The verified answers contract (the same spec SQLite runs) against a real PostgreSQL. */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresVerifiedAnswers } from '../../src/stores/postgres/postgres-verified-answers.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { verifiedAnswersContract } from './contracts/verified-answers-contract.ts';

verifiedAnswersContract('Postgres', async () => {
  const url = await createTestDatabase();
  return {
    // Each store is a replica of its own, with its own pool.
    open: async () => {
      const database = await openDatabase({ url, poolSize: 2, replicaId: `replica-${randomUUID()}` });
      const answers = createPostgresVerifiedAnswers(database);
      return { ...answers, close: () => answers.close().then(() => database.close()) };
    },
    dispose: async () => {},
  };
});

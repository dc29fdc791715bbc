/** The verified answers contract (the same spec SQLite runs) against a real PostgreSQL. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
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
    writeOneSourceRow: async (row) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(
          `INSERT INTO ragent_verified_answers (id, scope, question, answer, source, verified_by, verified_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [row.id, row.scope, row.question, row.answer, row.source, row.verifiedBy, row.verifiedAt],
        );
      } finally {
        await client.end();
      }
    },
    dispose: async () => {},
  };
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openSqliteVerifiedAnswers } from '../../src/stores/sqlite-verified-answers.ts';
import { verifiedAnswersContract } from './contracts/verified-answers-contract.ts';

verifiedAnswersContract('SQLite', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-verified-'));
  return {
    open: async () => openSqliteVerifiedAnswers(directory),
    writeOneSourceRow: async (row) => {
      const database = new Database(path.join(directory, 'bot.sqlite'));
      try {
        database
          .prepare(
            `INSERT INTO verified_answers (id, scope, question, answer, source, verified_by, verified_at)
             VALUES (@id, @scope, @question, @answer, @source, @verifiedBy, @verifiedAt)`,
          )
          .run(row);
      } finally {
        database.close();
      }
    },
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

/**
 * Verified answers in the embedded `bot.sqlite` (one process), table `verified_answers`; the `source`
 * column holds the sources as JSON text (`verified-answer-sources.ts`).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { VerifiedAnswer, VerifiedAnswers } from '../core/verified-answers.ts';
import { decodeVerifiedSources, encodeVerifiedSources } from './verified-answer-sources.ts';

interface VerifiedAnswerRow {
  id: string;
  scope: string;
  question: string;
  answer: string;
  source: string | null;
  verified_by: string;
  verified_at: string;
}

export function openSqliteVerifiedAnswers(dataDir: string): VerifiedAnswers {
  mkdirSync(dataDir, { recursive: true });
  return sqliteVerifiedAnswers(new Database(path.join(dataDir, 'bot.sqlite')));
}

export function sqliteVerifiedAnswers(database: Database.Database): VerifiedAnswers {
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.exec(`
    CREATE TABLE IF NOT EXISTS verified_answers (
      id TEXT PRIMARY KEY,
      scope TEXT NOT NULL,
      question TEXT NOT NULL,
      answer TEXT NOT NULL,
      source TEXT,
      verified_by TEXT NOT NULL,
      verified_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS verified_answers_scope ON verified_answers (scope, verified_at);
  `);
  const upsert = database.prepare(
    `INSERT INTO verified_answers (id, scope, question, answer, source, verified_by, verified_at)
     VALUES (@id, @scope, @question, @answer, @source, @verifiedBy, @verifiedAt)
     ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, question = excluded.question,
       answer = excluded.answer, source = excluded.source, verified_by = excluded.verified_by,
       verified_at = excluded.verified_at`,
  );
  const select = database.prepare(
    `SELECT id, scope, question, answer, source, verified_by, verified_at FROM verified_answers
     WHERE @scopes IS NULL OR scope IN (SELECT value FROM json_each(@scopes))
     ORDER BY verified_at, id`,
  );
  const remove = database.prepare('DELETE FROM verified_answers WHERE id = ?');
  let open = true;
  return {
    addVerifiedAnswer: async (answer) => {
      upsert.run({
        id: answer.id,
        scope: answer.scope,
        question: answer.question,
        answer: answer.answer,
        source: encodeVerifiedSources(answer.sources),
        verifiedBy: answer.verifiedBy,
        verifiedAt: new Date(answer.verifiedAt).toISOString(),
      });
    },
    listVerifiedAnswers: async (scopes) =>
      (select.all({ scopes: scopes ? JSON.stringify(scopes) : null }) as VerifiedAnswerRow[]).map(
        (row): VerifiedAnswer => ({
          id: row.id,
          scope: row.scope,
          question: row.question,
          answer: row.answer,
          sources: decodeVerifiedSources(row.source === null ? null : JSON.parse(row.source)),
          verifiedBy: row.verified_by,
          verifiedAt: row.verified_at,
        }),
      ),
    removeVerifiedAnswer: async (id) => remove.run(id).changes === 1,
    close: async () => {
      if (!open) return;
      open = false;
      database.close();
    },
  };
}

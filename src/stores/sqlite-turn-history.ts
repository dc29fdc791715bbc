/**
 * The turn history in the embedded `bot.sqlite` (one process), in its own table `turn_history`, indexed
 * by start time. Scopes and cited documents are JSON arrays; times are ISO 8601 UTC strings, which
 * sort as text.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { CitedDocument, PastTurn, TurnHistory, TurnOutcome } from '../core/turn-history.ts';

interface TurnHistoryRow {
  id: string;
  platform: string;
  scopes: string;
  thread_id: string;
  user_id: string;
  question: string;
  started_at: string;
  duration_ms: number;
  outcome: TurnOutcome;
  error_code: string | null;
  cited_documents: string;
  link: string | null;
}

export function openSqliteTurnHistory(dataDir: string): TurnHistory {
  mkdirSync(dataDir, { recursive: true });
  return sqliteTurnHistory(new Database(path.join(dataDir, 'bot.sqlite')));
}

export function sqliteTurnHistory(database: Database.Database): TurnHistory {
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.exec(`
    CREATE TABLE IF NOT EXISTS turn_history (
      id TEXT PRIMARY KEY,
      platform TEXT NOT NULL,
      scopes TEXT NOT NULL,
      thread_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      question TEXT NOT NULL,
      started_at TEXT NOT NULL,
      duration_ms INTEGER NOT NULL,
      outcome TEXT NOT NULL,
      error_code TEXT,
      cited_documents TEXT NOT NULL,
      link TEXT
    );
    CREATE INDEX IF NOT EXISTS turn_history_started_at ON turn_history (started_at);
  `);
  const insert = database.prepare(
    `INSERT INTO turn_history (id, platform, scopes, thread_id, user_id, question, started_at, duration_ms,
       outcome, error_code, cited_documents, link)
     VALUES (@id, @platform, @scopes, @threadId, @user, @question, @startedAt, @durationMs, @outcome,
       @errorCode, @citedDocuments, @link)
     ON CONFLICT (id) DO NOTHING`,
  );
  const select = database.prepare(
    `SELECT id, platform, scopes, thread_id, user_id, question, started_at, duration_ms, outcome, error_code,
       cited_documents, link FROM turn_history
     WHERE (@since IS NULL OR started_at >= @since) AND (@until IS NULL OR started_at < @until)
       AND (@platform IS NULL OR platform = @platform)
       AND (@scopes IS NULL OR EXISTS (
         SELECT 1 FROM json_each(turn_history.scopes) AS searched
         WHERE searched.value IN (SELECT value FROM json_each(@scopes))))
     ORDER BY started_at, id`,
  );
  const clearQuestions = database.prepare(
    "UPDATE turn_history SET question = '' WHERE started_at < ? AND question <> ''",
  );
  let open = true;
  return {
    recordTurn: async (record) => {
      insert.run({
        id: record.id,
        platform: record.platform,
        scopes: JSON.stringify(record.scopes),
        threadId: record.threadId,
        user: record.user,
        question: record.question,
        startedAt: new Date(record.startedAt).toISOString(),
        durationMs: Math.max(0, Math.round(record.durationMs)),
        outcome: record.outcome,
        errorCode: record.errorCode ?? null,
        citedDocuments: JSON.stringify(record.citedDocuments),
        link: record.link ?? null,
      });
    },
    listTurns: async (query = {}) =>
      (
        select.all({
          since: query.since ? new Date(query.since).toISOString() : null,
          until: query.until ? new Date(query.until).toISOString() : null,
          platform: query.platform ?? null,
          scopes: query.scopes ? JSON.stringify(query.scopes) : null,
        }) as TurnHistoryRow[]
      ).map(
        (row): PastTurn => ({
          id: row.id,
          platform: row.platform,
          scopes: JSON.parse(row.scopes) as string[],
          threadId: row.thread_id,
          user: row.user_id,
          question: row.question,
          startedAt: row.started_at,
          durationMs: row.duration_ms,
          outcome: row.outcome,
          ...(row.error_code ? { errorCode: row.error_code } : {}),
          citedDocuments: JSON.parse(row.cited_documents) as CitedDocument[],
          ...(row.link ? { link: row.link } : {}),
        }),
      ),
    forgetQuestionsBefore: async (before) => clearQuestions.run(new Date(before).toISOString()).changes,
    close: async () => {
      if (!open) return;
      open = false;
      database.close();
    },
  };
}

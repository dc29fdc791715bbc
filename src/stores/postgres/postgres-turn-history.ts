/**
 * The turn history of replicas in PostgreSQL (`ragent_turn_history`, migration 6), indexed by start time.
 * A record is inserted once per id (`ON CONFLICT DO NOTHING`): the replica that adopts a dead
 * replica's turn, or a retried write, never makes a second row.
 */
import type { CitedDocument, PastTurn, TurnHistory, TurnOutcome } from '../../core/turn-history.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

interface TurnHistoryRow {
  id: string;
  platform: string;
  scopes: string[];
  thread_id: string;
  user_id: string;
  question: string;
  started_at: Date;
  duration_ms: number;
  outcome: TurnOutcome;
  error_code: string | null;
  cited_documents: CitedDocument[];
  link: string | null;
}

export function createPostgresTurnHistory(database: PostgresDatabase): TurnHistory {
  const { pool } = database;
  const query = <Row extends object>(what: string, sql: string, values: unknown[]) =>
    withDatabase(database, what, () => pool.query<Row>({ text: sql, values }));
  return {
    async recordTurn(record) {
      await query(
        'record a turn',
        `INSERT INTO ragent_turn_history (id, platform, scopes, thread_id, user_id, question, started_at,
           duration_ms, outcome, error_code, cited_documents, link)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (id) DO NOTHING`,
        [
          record.id,
          record.platform,
          [...record.scopes],
          record.threadId,
          record.user,
          record.question,
          new Date(record.startedAt).toISOString(),
          Math.max(0, Math.round(record.durationMs)),
          record.outcome,
          record.errorCode ?? null,
          JSON.stringify(record.citedDocuments),
          record.link ?? null,
        ],
      );
    },
    async listTurns(filter = {}) {
      const { rows } = await query<TurnHistoryRow>(
        'list turns',
        `SELECT id, platform, scopes, thread_id, user_id, question, started_at, duration_ms, outcome,
           error_code, cited_documents, link FROM ragent_turn_history
         WHERE ($1::timestamptz IS NULL OR started_at >= $1) AND ($2::timestamptz IS NULL OR started_at < $2)
           AND ($3::text IS NULL OR platform = $3) AND ($4::text[] IS NULL OR scopes && $4)
         ORDER BY started_at, id`,
        [
          filter.since ? new Date(filter.since).toISOString() : null,
          filter.until ? new Date(filter.until).toISOString() : null,
          filter.platform ?? null,
          filter.scopes ? [...filter.scopes] : null,
        ],
      );
      return rows.map(
        (row): PastTurn => ({
          id: row.id,
          platform: row.platform,
          scopes: row.scopes,
          threadId: row.thread_id,
          user: row.user_id,
          question: row.question,
          startedAt: row.started_at.toISOString(),
          durationMs: row.duration_ms,
          outcome: row.outcome,
          ...(row.error_code ? { errorCode: row.error_code } : {}),
          citedDocuments: row.cited_documents,
          ...(row.link ? { link: row.link } : {}),
        }),
      );
    },
    async forgetQuestionsBefore(before) {
      const result = await query(
        'forget old questions',
        "UPDATE ragent_turn_history SET question = '' WHERE started_at < $1 AND question <> ''",
        [new Date(before).toISOString()],
      );
      return result.rowCount ?? 0;
    },
    // The database is closed by whoever opened it (the composition root).
    async close() {},
  };
}

/**
 * Verified answers of replicas in PostgreSQL (`ragent_verified_answers`, migration 6); the `source`
 * JSONB column holds the sources (`../verified-answer-sources.ts`).
 */
import type { VerifiedAnswer, VerifiedAnswers } from '../../core/verified-answers.ts';
import { decodeVerifiedSources, encodeVerifiedSources } from '../verified-answer-sources.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

interface VerifiedAnswerRow {
  id: string;
  scope: string;
  question: string;
  answer: string;
  /** Parsed by the driver: one source object (rows of earlier versions, or one source) or a list. */
  source: unknown;
  verified_by: string;
  verified_at: Date;
}

export function createPostgresVerifiedAnswers(database: PostgresDatabase): VerifiedAnswers {
  const { pool } = database;
  const query = <Row extends object>(what: string, sql: string, values: unknown[]) =>
    withDatabase(database, what, () => pool.query<Row>({ text: sql, values }));
  return {
    async addVerifiedAnswer(answer) {
      await query(
        'add a verified answer',
        `INSERT INTO ragent_verified_answers (id, scope, question, answer, source, verified_by, verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET scope = excluded.scope, question = excluded.question,
           answer = excluded.answer, source = excluded.source, verified_by = excluded.verified_by,
           verified_at = excluded.verified_at`,
        [
          answer.id,
          answer.scope,
          answer.question,
          answer.answer,
          encodeVerifiedSources(answer.sources),
          answer.verifiedBy,
          new Date(answer.verifiedAt).toISOString(),
        ],
      );
    },
    async listVerifiedAnswers(scopes) {
      const { rows } = await query<VerifiedAnswerRow>(
        'list verified answers',
        `SELECT id, scope, question, answer, source, verified_by, verified_at FROM ragent_verified_answers
         WHERE $1::text[] IS NULL OR scope = ANY($1) ORDER BY verified_at, id`,
        [scopes ? [...scopes] : null],
      );
      return rows.map(
        (row): VerifiedAnswer => ({
          id: row.id,
          scope: row.scope,
          question: row.question,
          answer: row.answer,
          sources: decodeVerifiedSources(row.source),
          verifiedBy: row.verified_by,
          verifiedAt: row.verified_at.toISOString(),
        }),
      );
    },
    async removeVerifiedAnswer(id) {
      const result = await query(
        'remove a verified answer',
        'DELETE FROM ragent_verified_answers WHERE id = $1',
        [id],
      );
      return result.rowCount === 1;
    },
    // The database is closed by whoever opened it (the composition root).
    async close() {},
  };
}

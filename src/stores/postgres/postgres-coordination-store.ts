/**
 * The coordination store of replicas on PostgreSQL (DATABASE_URL):
 * - event claims: their own table, `INSERT … ON CONFLICT DO NOTHING`, forgotten after a day;
 * - turns in flight: one row per turn with its owner's incarnation; an owner is alive while it holds
 *   its liveness lock (a session advisory lock, gone with its connection), so adoption re-owns only
 *   the turns of dead owners, atomically (`FOR UPDATE SKIP LOCKED`), never a live replica's;
 * - feedback.
 * `close()` only stops this store (a later `endTurn` is a no-op); the database is closed by whoever
 * opened it (the composition root).
 */
import type { CoordinationStore, TurnInFlight, TurnKind } from '../../core/coordination-store.ts';
import type { Feedback, Source, ThreadId } from '../../core/types.ts';
import { lockNamespace } from './migrations.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

const dayMs = 24 * 60 * 60 * 1000;

export interface PostgresCoordinationStoreOptions {
  /** How long a claimed event key is remembered (default a day). */
  eventTtlMs?: number;
}

/**
 * SQL for a CTE `live`: the incarnations holding their liveness lock in this database, read once per
 * statement (reading pg_locks is the expensive part). Use as `WITH live AS MATERIALIZED (${liveOwners})`.
 */
export const liveOwners = `SELECT lock.objid::bigint AS incarnation FROM pg_locks lock
  WHERE lock.locktype = 'advisory' AND lock.granted AND lock.objsubid = 2
    AND lock.classid = ${lockNamespace.liveness}::oid
    AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/** SQL: true when the owner incarnation in `column` is not in the `live` CTE. */
export const ownerIsDead = (column: string) => `${column} NOT IN (SELECT incarnation FROM live)`;

interface TurnRow {
  key: string;
  platform: string;
  kind: TurnKind;
  owner: string;
  location: Record<string, string>;
  started_at: string;
}

export function createPostgresCoordinationStore(
  database: PostgresDatabase,
  options: PostgresCoordinationStoreOptions = {},
): CoordinationStore {
  const ttlMs = options.eventTtlMs ?? dayMs;
  const { pool } = database;
  let closed = false;
  let claims = 0;
  const query = <Row extends object>(what: string, sql: string, values: unknown[]) =>
    withDatabase(database, what, () => pool.query<Row>(sql, values));

  return {
    replicaId: database.replicaId,
    async claimEvent(key) {
      if (++claims % 500 === 0) {
        await query(
          'forget old events',
          "DELETE FROM ragent_event_claims WHERE claimed_at < now() - $1 * interval '1 millisecond'",
          [ttlMs],
        );
      }
      // A row older than the TTL is a claim forgotten: take it over (one statement, so still exactly once).
      const result = await query(
        'claim an event',
        `INSERT INTO ragent_event_claims (key) VALUES ($1)
         ON CONFLICT (key) DO UPDATE SET claimed_at = now()
           WHERE ragent_event_claims.claimed_at < now() - $2 * interval '1 millisecond'`,
        [key, ttlMs],
      );
      return result.rowCount === 1;
    },
    async beginTurn(turn) {
      await query(
        'record a turn',
        `INSERT INTO ragent_turns_in_flight (key, platform, kind, owner, owner_incarnation, location, started_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (key) DO UPDATE SET location = excluded.location`,
        [
          turn.key,
          turn.platform,
          turn.kind,
          database.replicaId,
          database.incarnation,
          JSON.stringify(turn.location),
          turn.startedAt ?? Date.now(),
        ],
      );
    },
    async moveTurn(key, location) {
      await query('move a turn', 'UPDATE ragent_turns_in_flight SET location = $2 WHERE key = $1', [
        key,
        JSON.stringify(location),
      ]);
    },
    async endTurn(key) {
      if (closed) return;
      await query('end a turn', 'DELETE FROM ragent_turns_in_flight WHERE key = $1', [key]);
    },
    async adoptOrphanedTurns(platform) {
      // Adoptions of a platform take turns (a transaction lock): each one's statement then sees the
      // previous one's new owners, so a turn is adopted once. (One statement alone is not enough: a
      // row re-checked after a concurrent update does not see that updater's liveness lock.)
      const rows = await withDatabase(database, 'adopt turns', async () => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
            lockNamespace.adoption,
            platform,
          ]);
          const result = await client.query<TurnRow>(
            `WITH live AS MATERIALIZED (${liveOwners})
             UPDATE ragent_turns_in_flight turn SET owner = $2, owner_incarnation = $3
             WHERE platform = $1 AND owner_incarnation <> $3 AND ${ownerIsDead('turn.owner_incarnation')}
             RETURNING turn.key, turn.platform, turn.kind, turn.owner, turn.location, turn.started_at`,
            [platform, database.replicaId, database.incarnation],
          );
          await client.query('COMMIT');
          return result.rows;
        } catch (error) {
          await client.query('ROLLBACK').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      });
      return rows
        .map(
          (row): TurnInFlight => ({
            key: row.key,
            platform: row.platform,
            kind: row.kind,
            owner: row.owner,
            location: row.location,
            startedAt: Number(row.started_at),
          }),
        )
        .sort((left, right) => left.startedAt - right.startedAt || left.key.localeCompare(right.key));
    },
    async recordFeedback(feedback) {
      await query(
        'record feedback',
        `INSERT INTO ragent_feedback (thread_id, answer_id, user_id, value, at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (answer_id, user_id) DO UPDATE SET value = excluded.value, at = excluded.at, thread_id = excluded.thread_id`,
        [feedback.threadId, feedback.answerId, feedback.user, feedback.value, feedback.at],
      );
    },
    async recordAnswer(answer) {
      await query(
        'record an answer',
        `INSERT INTO ragent_answers (answer_id, thread_id, question, answer, sources, link, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (answer_id) DO UPDATE SET thread_id = excluded.thread_id, question = excluded.question,
           answer = excluded.answer, sources = excluded.sources, link = excluded.link, at = excluded.at`,
        [
          answer.answerId,
          answer.threadId,
          answer.question,
          answer.answer,
          JSON.stringify(answer.sources),
          answer.link ?? null,
          answer.at ?? new Date().toISOString(),
        ],
      );
    },
    async findAnswers(answerIds) {
      if (answerIds.length === 0) return [];
      const { rows } = await query<{
        answer_id: string;
        thread_id: string;
        question: string;
        answer: string;
        sources: Source[];
        link: string | null;
        at: string;
      }>(
        'find answers',
        `SELECT answer_id, thread_id, question, answer, sources, link, at FROM ragent_answers
         WHERE answer_id = ANY($1::text[])`,
        [[...new Set(answerIds)]],
      );
      return rows.map((row) => ({
        answerId: row.answer_id,
        threadId: row.thread_id,
        question: row.question,
        answer: row.answer,
        sources: row.sources,
        ...(row.link ? { link: row.link } : {}),
        at: row.at,
      }));
    },
    async linkChannel(channel, linked) {
      const { rowCount } = await query(
        'link a channel',
        `INSERT INTO ragent_channel_links (channel_scope, linked_scope) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [channel, linked],
      );
      return rowCount === 1;
    },
    async unlinkChannel(channel, linked) {
      const { rowCount } = await query(
        'unlink a channel',
        'DELETE FROM ragent_channel_links WHERE channel_scope = $1 AND linked_scope = $2',
        [channel, linked],
      );
      return rowCount === 1;
    },
    async linkedChannels(channel) {
      const { rows } = await query<{ linked_scope: string }>(
        'list linked channels',
        'SELECT linked_scope FROM ragent_channel_links WHERE channel_scope = $1 ORDER BY linked_scope COLLATE "C"',
        [channel],
      );
      return rows.map((row) => row.linked_scope);
    },
    async listFeedback(filter: { threadId?: ThreadId; since?: string } = {}) {
      const { rows } = await query<{
        thread_id: string;
        answer_id: string;
        user_id: string;
        value: 'up' | 'down';
        at: string;
      }>(
        'list feedback',
        `SELECT thread_id, answer_id, user_id, value, at FROM ragent_feedback
         WHERE ($1::text IS NULL OR thread_id = $1) AND ($2::text IS NULL OR at >= $2)
         ORDER BY at, answer_id, user_id`,
        [filter.threadId ?? null, filter.since ?? null],
      );
      return rows.map(
        (row): Feedback => ({
          threadId: row.thread_id,
          answerId: row.answer_id,
          user: row.user_id,
          value: row.value,
          at: row.at,
        }),
      );
    },
    async close() {
      closed = true;
    },
  };
}

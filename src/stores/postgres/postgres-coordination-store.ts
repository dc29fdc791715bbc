/**
 * The coordination store of replicas on PostgreSQL (DATABASE_URL):
 * - event claims: their own table, `INSERT … ON CONFLICT DO NOTHING`, forgotten after a day;
 * - turns in flight: one row per turn with its owner's incarnation; an owner is alive while it holds
 *   its liveness lock (a session advisory lock, gone with its connection), so adoption re-owns only
 *   the turns of dead owners, each exactly once (`ragent_adopt_turns`, migration 4), never a live
 *   replica's; ending a turn deletes only this replica's own row;
 * - per-thread order across replicas on those rows (postgres-thread-order.ts);
 * - feedback, channel links and channel settings.
 * `close()` only stops this store (a later `endTurn` is a no-op); the database is closed by whoever
 * opened it (the composition root).
 */
import type {
  CoordinationStore,
  QueuedAnswer,
  TurnInFlight,
  TurnKind,
} from '../../core/coordination-store.ts';
import type { Feedback, FeedbackReason, Source, ThreadId } from '../../core/types.ts';
import { lockNamespace } from './migrations.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';
import { createPostgresThreadOrder } from './postgres-thread-order.ts';

const dayMs = 24 * 60 * 60 * 1000;

export interface PostgresCoordinationStoreOptions {
  /** How long a claimed event key is remembered (default a day). */
  eventTtlMs?: number;
  /** How often a turn waiting for its thread looks again without being woken (default 1 s). */
  orderRetryMs?: number;
}

/**
 * SQL for a CTE `live`: the incarnations holding their liveness lock in this database, read once per
 * statement (reading pg_locks is the expensive part). Use as `WITH live AS MATERIALIZED (${liveOwners})`.
 */
export const liveOwners = `SELECT lock.objid::bigint AS incarnation FROM pg_locks lock
  WHERE lock.locktype = 'advisory' AND lock.granted AND lock.objsubid = 2
    AND lock.classid = ${lockNamespace.liveness}::oid
    AND lock.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

/**
 * SQL: claims the event $1. A row older than the TTL (in ms, the parameter `ttl`) is a claim forgotten:
 * taken over in the same statement, so still exactly once.
 */
const claimEvent = (ttl: string) => `INSERT INTO ragent_event_claims (key) VALUES ($1)
  ON CONFLICT (key) DO UPDATE SET claimed_at = now()
    WHERE ragent_event_claims.claimed_at < now() - ${ttl} * interval '1 millisecond'`;

/** SQL: records a turn from $1…$10 (see `turnParameters`); a turn begun again only moves. */
const insertTurn = `INSERT INTO ragent_turns_in_flight
  (key, platform, kind, owner, owner_incarnation, location, started_at, thread_id, position, state)`;
const turnValues = '($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';
/** The same values in a SELECT (typed: nothing infers them there). */
const turnSelected =
  '$1::text, $2::text, $3::text, $4::text, $5::int, $6::jsonb, $7::bigint, $8::text, $9::numeric, $10::text';
const onTurnConflict = ' ON CONFLICT (key) DO UPDATE SET location = excluded.location';

interface TurnRow {
  key: string;
  platform: string;
  kind: TurnKind;
  owner: string;
  location: Record<string, string>;
  started_at: string;
  state: 'opening' | 'queued' | 'running';
  answer: QueuedAnswer | null;
  thread_id: string | null;
  position: string | null;
}

export function createPostgresCoordinationStore(
  database: PostgresDatabase,
  options: PostgresCoordinationStoreOptions = {},
): CoordinationStore {
  const ttlMs = options.eventTtlMs ?? dayMs;
  const { pool } = database;
  let closed = false;
  let claims = 0;
  const order = createPostgresThreadOrder(
    database,
    options.orderRetryMs === undefined ? {} : { retryMs: options.orderRetryMs },
  );
  /** A statement; `name`d ones (the per-turn ones) are parsed and planned once per connection. */
  const query = <Row extends object>(what: string, sql: string, values: unknown[], name?: string) =>
    withDatabase(database, what, () =>
      pool.query<Row>(name ? { name, text: sql, values } : { text: sql, values }),
    );
  const forgetOldClaims = async () => {
    if (++claims % 500 !== 0) return;
    await query(
      'forget old events',
      "DELETE FROM ragent_event_claims WHERE claimed_at < now() - $1 * interval '1 millisecond'",
      [ttlMs],
    );
  };
  /** The turn's values as parameters $1…$10 (an answer with its thread waits for its acknowledgement: 'opening'). */
  const turnParameters = (turn: Parameters<CoordinationStore['beginTurn']>[0]) => [
    turn.key,
    turn.platform,
    turn.kind,
    database.replicaId,
    database.incarnation,
    JSON.stringify(turn.location),
    turn.startedAt ?? Date.now(),
    turn.thread?.threadId ?? null,
    turn.thread?.position ?? null,
    turn.thread ? 'opening' : 'running',
  ];

  return {
    replicaId: database.replicaId,
    async claimEvent(key) {
      await forgetOldClaims();
      const result = await query('claim an event', claimEvent('$2'), [key, ttlMs], 'ragent-claim-event');
      return result.rowCount === 1;
    },
    async releaseEvent(key) {
      await query('release an event', 'DELETE FROM ragent_event_claims WHERE key = $1', [key]);
    },
    async beginTurn(turn) {
      await query(
        'record a turn',
        `${insertTurn} VALUES ${turnValues}${onTurnConflict}`,
        turnParameters(turn),
        'ragent-begin-turn',
      );
    },
    async claimAndBeginTurn(turn) {
      await forgetOldClaims();
      const { rowCount } = await query(
        'claim an event and record its turn',
        `WITH claimed AS (${claimEvent('$11')} RETURNING key)
         ${insertTurn} SELECT ${turnSelected} FROM claimed${onTurnConflict}`,
        [...turnParameters(turn), ttlMs],
        'ragent-claim-and-begin-turn',
      );
      return rowCount === 1;
    },
    async moveTurn(key, location) {
      await query('move a turn', 'UPDATE ragent_turns_in_flight SET location = $2 WHERE key = $1', [
        key,
        JSON.stringify(location),
      ]);
    },
    async endTurn(key) {
      if (closed) return;
      // Only this replica's own record; the thread's waiting turns are woken on every replica.
      await query(
        'end a turn',
        'SELECT ragent_end_turn($1, $2)',
        [key, database.incarnation],
        'ragent-end-turn',
      );
    },
    async adoptOrphanedTurns(platform) {
      // Never while this replica is itself taken for dead: it would re-own turns others are taking.
      if (!database.isAlive()) return [];
      const { rows } = await query<TurnRow>('adopt turns', 'SELECT * FROM ragent_adopt_turns($1, $2, $3)', [
        platform,
        database.incarnation,
        database.replicaId,
      ]);
      return rows
        .map((row): TurnInFlight => {
          const turn: TurnInFlight = {
            key: row.key,
            platform: row.platform,
            kind: row.kind,
            owner: row.owner,
            location: row.location,
            startedAt: Number(row.started_at),
          };
          if (row.thread_id && row.position !== null)
            turn.thread = { threadId: row.thread_id, position: String(row.position) };
          // Queued, never started: the adopter answers it.
          if (row.state === 'queued' && row.answer) turn.answer = row.answer;
          return turn;
        })
        .sort((left, right) => left.startedAt - right.startedAt || left.key.localeCompare(right.key));
    },
    runInThreadOrder: (turn, work, events) => order.run(turn, work, events),
    recordsHoldThreads: true,
    onLost: (listener) => database.onLost(listener),
    async recordFeedback(feedback) {
      await query(
        'record feedback',
        `INSERT INTO ragent_feedback (thread_id, answer_id, user_id, value, at, reason, comment)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (answer_id, user_id) DO UPDATE SET value = excluded.value, at = excluded.at,
           thread_id = excluded.thread_id, reason = excluded.reason, comment = excluded.comment`,
        [
          feedback.threadId,
          feedback.answerId,
          feedback.user,
          feedback.value,
          feedback.at,
          feedback.reason ?? null,
          feedback.comment ?? null,
        ],
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
    async channelSetting(channel, name) {
      const { rows } = await query<{ value: string }>(
        'read a channel setting',
        'SELECT value FROM ragent_channel_settings WHERE channel_scope = $1 AND name = $2',
        [channel, name],
      );
      return rows[0]?.value;
    },
    async setChannelSetting(channel, name, value) {
      if (value === null)
        await query(
          'clear a channel setting',
          'DELETE FROM ragent_channel_settings WHERE channel_scope = $1 AND name = $2',
          [channel, name],
        );
      else
        await query(
          'set a channel setting',
          `INSERT INTO ragent_channel_settings (channel_scope, name, value) VALUES ($1, $2, $3)
           ON CONFLICT (channel_scope, name) DO UPDATE SET value = excluded.value`,
          [channel, name, value],
        );
    },
    async listFeedback(filter: { threadId?: ThreadId; since?: string } = {}) {
      const { rows } = await query<{
        thread_id: string;
        answer_id: string;
        user_id: string;
        value: 'up' | 'down';
        at: string;
        reason: FeedbackReason | null;
        comment: string | null;
      }>(
        'list feedback',
        `SELECT thread_id, answer_id, user_id, value, at, reason, comment FROM ragent_feedback
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
          ...(row.reason ? { reason: row.reason } : {}),
          ...(row.comment ? { comment: row.comment } : {}),
        }),
      );
    },
    async close() {
      closed = true;
      await order.close();
    },
  };
}

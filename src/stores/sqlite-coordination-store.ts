/**
 * The coordination store on an embedded SQLite file, `<dataDir>/bot.sqlite` (one process): claimed
 * platform events (remembered a day), turns in flight with their owner, 👍/👎 feedback, the delivered
 * answers it refers to, channel links and channel settings.
 *
 * One process is alone: its conversations queue a thread's turns, so `runInThreadOrder` records the
 * turn's location and runs the work at once, and the store is never lost (`onLost` never calls).
 *
 * Each open gets a fresh `replicaId`; in one process every recorded turn whose owner is not this
 * process's replicaId was left by a process that is gone (a crash, or a stop that could not tell the
 * thread), so `adoptOrphanedTurns` hands it to this one. A `bot.sqlite` from before turn owners (or
 * before ingest records) is migrated in place: the missing columns are added, their rows orphaned.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type {
  CoordinationStore,
  DeliveredAnswer,
  NewTurn,
  TurnInFlight,
  TurnKind,
} from '../core/coordination-store.ts';
import type { Feedback, FeedbackReason, Source } from '../core/types.ts';
import { singleProcessThreadOrder } from './single-process-thread-order.ts';

const dayMs = 24 * 60 * 60 * 1000;

export interface SqliteCoordinationStoreOptions {
  /** How long a claimed event is remembered (default a day). */
  eventTtlMs?: number;
  /** Fixed replica id (tests); default a new UUID per open. */
  replicaId?: string;
}

interface TurnRow {
  key: string;
  platform: string;
  kind: TurnKind;
  owner: string;
  location: string;
  started_at: number;
}

interface AnswerRow {
  answer_id: string;
  thread_id: string;
  question: string;
  answer: string;
  sources: string;
  link: string | null;
  at: string;
}

interface FeedbackRow {
  thread_id: string;
  answer_id: string;
  user_id: string;
  value: 'up' | 'down';
  at: string;
  reason: FeedbackReason | null;
  comment: string | null;
}

export function openSqliteCoordinationStore(
  dataDir: string,
  options: SqliteCoordinationStoreOptions = {},
): CoordinationStore {
  mkdirSync(dataDir, { recursive: true });
  return sqliteCoordinationStore(new Database(path.join(dataDir, 'bot.sqlite')), options);
}

export function sqliteCoordinationStore(
  database: Database.Database,
  options: SqliteCoordinationStoreOptions = {},
): CoordinationStore {
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.exec(`
    CREATE TABLE IF NOT EXISTS feedback (
      thread_id TEXT NOT NULL,
      answer_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      value TEXT NOT NULL CHECK (value IN ('up', 'down')),
      at TEXT NOT NULL,
      reason TEXT,
      comment TEXT,
      PRIMARY KEY (answer_id, user_id)
    );
    CREATE INDEX IF NOT EXISTS feedback_thread ON feedback (thread_id);
    CREATE TABLE IF NOT EXISTS answers (
      answer_id TEXT PRIMARY KEY,
      thread_id TEXT NOT NULL,
      question TEXT NOT NULL,
      answer TEXT NOT NULL,
      sources TEXT NOT NULL,
      link TEXT,
      at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS handled_events (
      key TEXT PRIMARY KEY,
      at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS turns_in_flight (
      key TEXT PRIMARY KEY,
      platform TEXT NOT NULL,
      location TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      kind TEXT NOT NULL DEFAULT 'answer',
      owner TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE IF NOT EXISTS channel_links (
      channel_scope TEXT NOT NULL,
      linked_scope TEXT NOT NULL,
      PRIMARY KEY (channel_scope, linked_scope)
    );
    CREATE TABLE IF NOT EXISTS channel_settings (
      channel_scope TEXT NOT NULL,
      name TEXT NOT NULL,
      value TEXT NOT NULL,
      PRIMARY KEY (channel_scope, name)
    );
  `);
  addMissingColumns(database);
  const replicaId = options.replicaId ?? randomUUID();
  const ttlMs = options.eventTtlMs ?? dayMs;
  const upsertFeedback = database.prepare(
    `INSERT INTO feedback (thread_id, answer_id, user_id, value, at, reason, comment)
     VALUES (@threadId, @answerId, @user, @value, @at, @reason, @comment)
     ON CONFLICT (answer_id, user_id) DO UPDATE SET value = excluded.value, at = excluded.at,
       reason = excluded.reason, comment = excluded.comment`,
  );
  const selectFeedback = database.prepare(
    `SELECT thread_id, answer_id, user_id, value, at, reason, comment FROM feedback
     WHERE (@threadId IS NULL OR thread_id = @threadId) AND (@since IS NULL OR at >= @since)
     ORDER BY at, answer_id, user_id`,
  );
  const upsertAnswer = database.prepare(
    `INSERT INTO answers (answer_id, thread_id, question, answer, sources, link, at)
     VALUES (@answerId, @threadId, @question, @answer, @sources, @link, @at)
     ON CONFLICT (answer_id) DO UPDATE SET thread_id = excluded.thread_id, question = excluded.question,
       answer = excluded.answer, sources = excluded.sources, link = excluded.link, at = excluded.at`,
  );
  const selectAnswer = database.prepare(
    'SELECT answer_id, thread_id, question, answer, sources, link, at FROM answers WHERE answer_id = ?',
  );
  const insertEvent = database.prepare('INSERT OR IGNORE INTO handled_events (key, at) VALUES (?, ?)');
  const forgetEvents = database.prepare('DELETE FROM handled_events WHERE at < ?');
  const forgetEvent = database.prepare('DELETE FROM handled_events WHERE key = ?');
  const upsertTurn = database.prepare(
    `INSERT INTO turns_in_flight (key, platform, kind, owner, location, started_at)
     VALUES (@key, @platform, @kind, @owner, @location, @startedAt)
     ON CONFLICT (key) DO UPDATE SET location = excluded.location, owner = excluded.owner`,
  );
  const updateLocation = database.prepare('UPDATE turns_in_flight SET location = ? WHERE key = ?');
  const deleteTurn = database.prepare('DELETE FROM turns_in_flight WHERE key = ?');
  const selectOrphans = database.prepare(
    `SELECT key, platform, kind, owner, location, started_at FROM turns_in_flight
     WHERE platform = ? AND owner <> ? ORDER BY started_at, key`,
  );
  const adopt = database.prepare('UPDATE turns_in_flight SET owner = ? WHERE key = ?');
  const adoptAll = database.transaction((platform: string) => {
    const rows = selectOrphans.all(platform, replicaId) as TurnRow[];
    for (const row of rows) adopt.run(replicaId, row.key);
    return rows;
  });
  const insertLink = database.prepare(
    'INSERT OR IGNORE INTO channel_links (channel_scope, linked_scope) VALUES (?, ?)',
  );
  const deleteLink = database.prepare(
    'DELETE FROM channel_links WHERE channel_scope = ? AND linked_scope = ?',
  );
  const selectLinks = database.prepare(
    'SELECT linked_scope FROM channel_links WHERE channel_scope = ? ORDER BY linked_scope',
  );
  const upsertSetting = database.prepare(
    `INSERT INTO channel_settings (channel_scope, name, value) VALUES (?, ?, ?)
     ON CONFLICT (channel_scope, name) DO UPDATE SET value = excluded.value`,
  );
  const deleteSetting = database.prepare('DELETE FROM channel_settings WHERE channel_scope = ? AND name = ?');
  const selectSetting = database.prepare(
    'SELECT value FROM channel_settings WHERE channel_scope = ? AND name = ?',
  );
  let claims = 0;
  let open = true;
  const claim = (key: string) => {
    const now = Date.now();
    if (++claims % 500 === 0) forgetEvents.run(now - ttlMs);
    return insertEvent.run(key, now).changes === 1;
  };
  const begin = (turn: NewTurn) =>
    upsertTurn.run({
      key: turn.key,
      platform: turn.platform,
      kind: turn.kind,
      owner: replicaId,
      location: JSON.stringify(turn.location),
      startedAt: turn.startedAt ?? Date.now(),
    });
  const moveTurn = async (key: string, location: Record<string, string>) => {
    updateLocation.run(JSON.stringify(location), key);
  };
  const order = singleProcessThreadOrder({ moveTurn });
  const claimAndBegin = database.transaction((turn: NewTurn) => {
    if (!claim(turn.key)) return false;
    begin(turn);
    return true;
  });

  return {
    replicaId,
    claimEvent: async (key) => claim(key),
    releaseEvent: async (key) => {
      forgetEvent.run(key);
    },
    beginTurn: async (turn) => {
      begin(turn);
    },
    claimAndBeginTurn: async (turn) => claimAndBegin.immediate(turn),
    moveTurn,
    endTurn: async (key) => {
      // A turn abandoned by a stop may end after the store closed; the stop already told it.
      if (open) deleteTurn.run(key);
    },
    adoptOrphanedTurns: async (platform) =>
      adoptAll.immediate(platform).map(
        (row): TurnInFlight => ({
          key: row.key,
          platform: row.platform,
          kind: row.kind,
          owner: replicaId,
          location: JSON.parse(row.location) as Record<string, string>,
          startedAt: row.started_at,
        }),
      ),
    ...order,
    // Alone: nothing shared to lose.
    onLost: () => {},
    recordFeedback: async (feedback: Feedback) => {
      upsertFeedback.run({
        threadId: feedback.threadId,
        answerId: feedback.answerId,
        user: feedback.user,
        value: feedback.value,
        at: feedback.at,
        reason: feedback.reason ?? null,
        comment: feedback.comment ?? null,
      });
    },
    recordAnswer: async (answer: DeliveredAnswer) => {
      upsertAnswer.run({
        answerId: answer.answerId,
        threadId: answer.threadId,
        question: answer.question,
        answer: answer.answer,
        sources: JSON.stringify(answer.sources),
        link: answer.link ?? null,
        at: answer.at ?? new Date().toISOString(),
      });
    },
    findAnswers: async (answerIds) =>
      [...new Set(answerIds)].flatMap((answerId) => {
        const row = selectAnswer.get(answerId) as AnswerRow | undefined;
        if (!row) return [];
        return [
          {
            answerId: row.answer_id,
            threadId: row.thread_id,
            question: row.question,
            answer: row.answer,
            sources: JSON.parse(row.sources) as Source[],
            ...(row.link ? { link: row.link } : {}),
            at: row.at,
          },
        ];
      }),
    listFeedback: async (query = {}) =>
      (
        selectFeedback.all({ threadId: query.threadId ?? null, since: query.since ?? null }) as FeedbackRow[]
      ).map((row) => ({
        threadId: row.thread_id,
        answerId: row.answer_id,
        user: row.user_id,
        value: row.value,
        at: row.at,
        ...(row.reason ? { reason: row.reason } : {}),
        ...(row.comment ? { comment: row.comment } : {}),
      })),
    linkChannel: async (channel, linked) => insertLink.run(channel, linked).changes === 1,
    unlinkChannel: async (channel, linked) => deleteLink.run(channel, linked).changes === 1,
    linkedChannels: async (channel) =>
      (selectLinks.all(channel) as Array<{ linked_scope: string }>).map((row) => row.linked_scope),
    channelSetting: async (channel, name) =>
      (selectSetting.get(channel, name) as { value: string } | undefined)?.value,
    setChannelSetting: async (channel, name, value) => {
      if (value === null) deleteSetting.run(channel, name);
      else upsertSetting.run(channel, name, value);
    },
    close: async () => {
      if (!open) return;
      open = false;
      database.close();
    },
  };
}

/** A `bot.sqlite` from before ingest records, turn owners or 👎 reasons lacks their columns: add them. */
function addMissingColumns(database: Database.Database): void {
  database
    .transaction(() => {
      const columns = new Set(
        (database.pragma('table_info(turns_in_flight)') as Array<{ name: string }>).map(
          (column) => column.name,
        ),
      );
      if (!columns.has('kind')) {
        database.exec("ALTER TABLE turns_in_flight ADD COLUMN kind TEXT NOT NULL DEFAULT 'answer'");
      }
      // Rows of an older process have no owner: '' is never a replica id, so they are orphans.
      if (!columns.has('owner'))
        database.exec("ALTER TABLE turns_in_flight ADD COLUMN owner TEXT NOT NULL DEFAULT ''");
      // Votes from before 👎 reasons have none.
      const feedbackColumns = new Set(
        (database.pragma('table_info(feedback)') as Array<{ name: string }>).map((column) => column.name),
      );
      if (!feedbackColumns.has('reason')) database.exec('ALTER TABLE feedback ADD COLUMN reason TEXT');
      if (!feedbackColumns.has('comment')) database.exec('ALTER TABLE feedback ADD COLUMN comment TEXT');
    })
    .immediate();
}

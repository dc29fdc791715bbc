/**
 * The chat adapters' own small state, in `<dataDir>/bot.sqlite`: 👍/👎 feedback stored with the
 * thread and answer ids, and the platform events already handled (so a retried or duplicated
 * delivery produces exactly one answer, across restarts too), and the work in flight — answer turns
 * and ingests — so that a thread a crash left hanging is told what happened when the bot starts next.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Feedback, ThreadId } from '../../core/types.ts';

export interface BotStateStore {
  recordFeedback(feedback: Feedback): void;
  listFeedback(threadId: ThreadId): Feedback[];
  /** True the first time a key is claimed; false for a duplicate. Keys older than `ttlMs` are forgotten. */
  claimEvent(key: string): boolean;
  /**
   * Records a turn in flight, or updates its location (e.g. once the status message exists).
   * Keyed like the claimed event; survives a crash, which is the point. `kind` defaults to 'answer'.
   */
  beginTurn(turn: Omit<TurnInFlight, 'kind'> & { kind?: TurnKind }): void;
  /** The turn's outcome was posted (or it was told to ask again): forget it. Safe after `close()`. */
  endTurn(key: string): void;
  /** Turns begun on `platform` and never ended, oldest first: a crash cut them short. */
  unfinishedTurns(platform: string): TurnInFlight[];
  close(): void;
}

/** What was in flight: an answer to a question, or an ingest of uploaded files. */
export type TurnKind = 'answer' | 'ingest';

export interface TurnInFlight {
  key: string;
  platform: string;
  kind: TurnKind;
  /** What the adapter needs to reach the thread again (channel, thread, status message …). */
  location: Record<string, string>;
  /** Epoch milliseconds. */
  startedAt: number;
}

const dayMs = 24 * 60 * 60 * 1000;

export function openBotStateStore(dataDir: string, options: { eventTtlMs?: number } = {}): BotStateStore {
  mkdirSync(dataDir, { recursive: true });
  const database = new Database(path.join(dataDir, 'bot.sqlite'));
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.exec(`
    CREATE TABLE IF NOT EXISTS feedback (
      thread_id TEXT NOT NULL,
      answer_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      value TEXT NOT NULL CHECK (value IN ('up', 'down')),
      at TEXT NOT NULL,
      PRIMARY KEY (answer_id, user_id)
    );
    CREATE INDEX IF NOT EXISTS feedback_thread ON feedback (thread_id);
    CREATE TABLE IF NOT EXISTS handled_events (
      key TEXT PRIMARY KEY,
      at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS turns_in_flight (
      key TEXT PRIMARY KEY,
      platform TEXT NOT NULL,
      location TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      kind TEXT NOT NULL DEFAULT 'answer'
    );
  `);
  addKindColumn(database);
  const ttlMs = options.eventTtlMs ?? dayMs;
  const upsertFeedback = database.prepare(
    `INSERT INTO feedback (thread_id, answer_id, user_id, value, at) VALUES (@threadId, @answerId, @user, @value, @at)
     ON CONFLICT (answer_id, user_id) DO UPDATE SET value = excluded.value, at = excluded.at`,
  );
  const selectFeedback = database.prepare(
    'SELECT thread_id, answer_id, user_id, value, at FROM feedback WHERE thread_id = ? ORDER BY at',
  );
  const insertEvent = database.prepare('INSERT OR IGNORE INTO handled_events (key, at) VALUES (?, ?)');
  const forgetEvents = database.prepare('DELETE FROM handled_events WHERE at < ?');
  const upsertTurn = database.prepare(
    `INSERT INTO turns_in_flight (key, platform, kind, location, started_at)
     VALUES (@key, @platform, @kind, @location, @startedAt)
     ON CONFLICT (key) DO UPDATE SET location = excluded.location`,
  );
  const deleteTurn = database.prepare('DELETE FROM turns_in_flight WHERE key = ?');
  const selectTurns = database.prepare(
    'SELECT key, platform, kind, location, started_at FROM turns_in_flight WHERE platform = ? ORDER BY started_at, key',
  );
  let claims = 0;

  return {
    recordFeedback: (feedback) => {
      upsertFeedback.run(feedback);
    },
    listFeedback: (threadId) =>
      (
        selectFeedback.all(threadId) as Array<{
          thread_id: string;
          answer_id: string;
          user_id: string;
          value: 'up' | 'down';
          at: string;
        }>
      ).map((row) => ({
        threadId: row.thread_id,
        answerId: row.answer_id,
        user: row.user_id,
        value: row.value,
        at: row.at,
      })),
    claimEvent: (key) => {
      const now = Date.now();
      if (++claims % 500 === 0) forgetEvents.run(now - ttlMs);
      return insertEvent.run(key, now).changes === 1;
    },
    beginTurn: (turn) => {
      upsertTurn.run({ ...turn, kind: turn.kind ?? 'answer', location: JSON.stringify(turn.location) });
    },
    endTurn: (key) => {
      // A turn abandoned by a graceful stop may end after the store closed; the stop already told it.
      if (database.open) deleteTurn.run(key);
    },
    unfinishedTurns: (platform) =>
      (
        selectTurns.all(platform) as Array<{
          key: string;
          platform: string;
          kind: TurnKind;
          location: string;
          started_at: number;
        }>
      ).map((row) => ({
        key: row.key,
        platform: row.platform,
        kind: row.kind,
        location: JSON.parse(row.location) as Record<string, string>,
        startedAt: row.started_at,
      })),
    close: () => {
      database.close();
    },
  };
}

/** A `bot.sqlite` made before ingests were recorded has no `kind` column: add it (its rows are answers). */
function addKindColumn(database: Database.Database): void {
  database
    .transaction(() => {
      const columns = database.pragma('table_info(turns_in_flight)') as Array<{ name: string }>;
      if (columns.some((column) => column.name === 'kind')) return;
      database.exec("ALTER TABLE turns_in_flight ADD COLUMN kind TEXT NOT NULL DEFAULT 'answer'");
    })
    .immediate();
}

/**
 * The chat adapters' own small state, in `<dataDir>/bot.sqlite`: 👍/👎 feedback stored with the
 * thread and answer ids, and the platform events already handled (so a retried or duplicated
 * delivery produces exactly one answer, across restarts too).
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
  close(): void;
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
  `);
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
    close: () => {
      database.close();
    },
  };
}

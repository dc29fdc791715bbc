import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';

/** What only the SQLite store does; the ports' contracts run in sqlite-ports.test.ts. */

describe('SQLite coordination store', () => {
  it('migrates a bot.sqlite from before turn kinds and owners: its turns are orphans, answers', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-coordination-'));
    try {
      const old = new Database(path.join(directory, 'bot.sqlite'));
      old.exec(`CREATE TABLE turns_in_flight (
        key TEXT PRIMARY KEY, platform TEXT NOT NULL, location TEXT NOT NULL, started_at INTEGER NOT NULL
      )`);
      old
        .prepare('INSERT INTO turns_in_flight VALUES (?, ?, ?, ?)')
        .run('old', 'slack', '{"channel":"C1"}', 5);
      old.close();
      const store = openSqliteCoordinationStore(directory);
      expect(await store.adoptOrphanedTurns('slack')).toEqual([
        {
          key: 'old',
          platform: 'slack',
          kind: 'answer',
          owner: store.replicaId,
          location: { channel: 'C1' },
          startedAt: 5,
        },
      ]);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('migrates a bot.sqlite from before 👎 reasons: its votes are kept, new ones keep their reason', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-coordination-'));
    try {
      const old = new Database(path.join(directory, 'bot.sqlite'));
      old.exec(`CREATE TABLE feedback (
        thread_id TEXT NOT NULL, answer_id TEXT NOT NULL, user_id TEXT NOT NULL,
        value TEXT NOT NULL CHECK (value IN ('up', 'down')), at TEXT NOT NULL,
        PRIMARY KEY (answer_id, user_id)
      )`);
      old
        .prepare('INSERT INTO feedback VALUES (?, ?, ?, ?, ?)')
        .run('t1', 'a1', 'U1', 'down', '2026-11-01T00:00:00Z');
      old.close();
      const store = openSqliteCoordinationStore(directory);
      await store.recordFeedback({
        threadId: 't1',
        answerId: 'a1',
        user: 'U2',
        value: 'down',
        at: '2026-11-02T00:00:00Z',
        reason: 'incomplete',
      });
      expect(await store.listFeedback()).toEqual([
        { threadId: 't1', answerId: 'a1', user: 'U1', value: 'down', at: '2026-11-01T00:00:00Z' },
        {
          threadId: 't1',
          answerId: 'a1',
          user: 'U2',
          value: 'down',
          at: '2026-11-02T00:00:00Z',
          reason: 'incomplete',
        },
      ]);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('forgets claimed events after their time to live', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-coordination-'));
    try {
      const store = openSqliteCoordinationStore(directory, { eventTtlMs: -1 });
      expect(await store.claimEvent('first')).toBe(true);
      // Expired keys are swept every 500 claims.
      for (let i = 0; i < 499; i++) await store.claimEvent(`filler-${i}`);
      expect(await store.claimEvent('first')).toBe(true);
      await store.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

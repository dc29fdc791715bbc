/**
 * Data written by the version before the coordination ports and the id codec keeps working: a copy of
 * that version's `bot.sqlite` schema, and a PostgreSQL at that version's schema (migrations 1–4, whose
 * text never changes), with its rows, open in this version: links, feedback, answers and turns read
 * as before, their ids decode to the parts they were made of, and channel settings (new) work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { decodeId, decodeScope } from '../../src/core/ids.ts';
import { migrations } from '../../src/stores/postgres/migrations.ts';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../src/stores/postgres/postgres-coordination-store.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { createTestDatabase } from '../support/postgres-database.ts';

/** `bot.sqlite` as the version before wrote it (6d81360). */
const previousSqliteSchema = `
  CREATE TABLE feedback (
    thread_id TEXT NOT NULL, answer_id TEXT NOT NULL, user_id TEXT NOT NULL,
    value TEXT NOT NULL CHECK (value IN ('up', 'down')), at TEXT NOT NULL,
    PRIMARY KEY (answer_id, user_id)
  );
  CREATE INDEX feedback_thread ON feedback (thread_id);
  CREATE TABLE answers (
    answer_id TEXT PRIMARY KEY, thread_id TEXT NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL,
    sources TEXT NOT NULL, link TEXT, at TEXT NOT NULL
  );
  CREATE TABLE handled_events (key TEXT PRIMARY KEY, at INTEGER NOT NULL);
  CREATE TABLE turns_in_flight (
    key TEXT PRIMARY KEY, platform TEXT NOT NULL, location TEXT NOT NULL, started_at INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT 'answer', owner TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE channel_links (
    channel_scope TEXT NOT NULL, linked_scope TEXT NOT NULL, PRIMARY KEY (channel_scope, linked_scope)
  );`;

const slackThread = 'slack:T0123ABCD:C0456EFGH:1712345678.123456';
const discordThread = 'discord:123456789012345678:223456789012345678';

/** The rows, as the version before wrote them (same values in both schemas). */
const rows = {
  link: ['slack:T0123ABCD:C0456EFGH', 'slack:T0123ABCD:C0999ZZZZ'],
  feedback: [slackThread, 'a1', 'U1', 'up', '2026-11-30T00:00:00Z'],
  answer: ['a1', slackThread, 'How?', 'Like this.', '[]', null, '2026-11-30T00:00:00Z'],
  event: 'slack:T0123ABCD:C0456EFGH:1712345678.123456',
  turn: ['discord:message:9', 'discord', '{"channelId":"7"}', 5, 'answer', 'gone-process'],
} as const;

async function expectUpgraded(store: CoordinationStore) {
  expect(await store.linkedChannels(rows.link[0])).toEqual([rows.link[1]]);
  expect(decodeScope(rows.link[1])).toEqual({
    kind: 'channel',
    platform: 'slack',
    place: 'T0123ABCD',
    channel: 'C0999ZZZZ',
  });
  expect((await store.listFeedback({ threadId: slackThread })).map((vote) => vote.answerId)).toEqual(['a1']);
  const [answer] = await store.findAnswers(['a1']);
  expect(decodeId(answer?.threadId ?? '')).toEqual({
    platform: 'slack',
    parts: ['T0123ABCD', 'C0456EFGH', '1712345678.123456'],
  });
  expect(decodeId(discordThread).parts).toEqual(['123456789012345678', '223456789012345678']);
  expect(await store.claimEvent(rows.event)).toBe(false);
  expect((await store.adoptOrphanedTurns('discord')).map((turn) => [turn.key, turn.location])).toEqual([
    ['discord:message:9', { channelId: '7' }],
  ]);
  await store.setChannelSetting(rows.link[0], 'auto-answer', 'on');
  expect(await store.channelSetting(rows.link[0], 'auto-answer')).toBe('on');
}

describe('stored data of the version before', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('SQLite: bot.sqlite opens with its links, feedback, answers, claims and turns', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-upgrade-'));
    cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
    const previous = new Database(path.join(directory, 'bot.sqlite'));
    previous.exec(previousSqliteSchema);
    previous.prepare('INSERT INTO channel_links VALUES (?, ?)').run(...rows.link);
    previous.prepare('INSERT INTO feedback VALUES (?, ?, ?, ?, ?)').run(...rows.feedback);
    previous.prepare('INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?, ?)').run(...rows.answer);
    previous.prepare('INSERT INTO handled_events VALUES (?, ?)').run(rows.event, Date.now());
    previous.prepare('INSERT INTO turns_in_flight VALUES (?, ?, ?, ?, ?, ?)').run(...rows.turn);
    previous.close();
    const store = openSqliteCoordinationStore(directory);
    cleanups.push(() => store.close());
    await expectUpgraded(store);
  });

  it('Postgres: a database at schema version 4 migrates and keeps its rows', async () => {
    const url = await createTestDatabase();
    const previous = new pg.Client({ connectionString: url });
    await previous.connect();
    try {
      await previous.query(
        'CREATE TABLE ragent_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
      );
      for (const [index, migration] of migrations.slice(0, 4).entries()) {
        await previous.query(migration);
        await previous.query('INSERT INTO ragent_migrations (version) VALUES ($1)', [index + 1]);
      }
      await previous.query('INSERT INTO ragent_channel_links VALUES ($1, $2)', [...rows.link]);
      await previous.query('INSERT INTO ragent_feedback VALUES ($1, $2, $3, $4, $5)', [...rows.feedback]);
      await previous.query('INSERT INTO ragent_answers VALUES ($1, $2, $3, $4, $5, $6, $7)', [
        ...rows.answer,
      ]);
      await previous.query('INSERT INTO ragent_event_claims (key) VALUES ($1)', [rows.event]);
      // A turn of a replica that is gone (incarnation 999 holds no liveness lock).
      await previous.query(
        `INSERT INTO ragent_turns_in_flight (key, platform, location, started_at, kind, owner, owner_incarnation)
         VALUES ($1, $2, $3, $4, $5, $6, 999)`,
        [...rows.turn],
      );
    } finally {
      await previous.end();
    }
    const database = await openDatabase({ url, poolSize: 2, replicaId: 'upgraded' });
    cleanups.push(() => database.close());
    const store = createPostgresCoordinationStore(database);
    cleanups.push(() => store.close());
    await expectUpgraded(store);
  });
});

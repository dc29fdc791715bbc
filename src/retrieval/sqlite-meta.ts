/**
 * The `meta` table of the embedded store: its format version, the embedding model and size it holds,
 * and the write generation (bumped by every write; the saved search snapshot is stamped with it).
 */
import type Database from 'better-sqlite3';
import { markVectorPagesCurrent, vectorPagesCurrent } from './vector-pages.ts';

export function readMeta(db: Database.Database, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Database.Database, key: string, value: string): void {
  db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}

export function writeGeneration(db: Database.Database): string {
  return (
    (db.prepare("SELECT value FROM meta WHERE key = 'write_generation'").pluck().get() as
      | string
      | undefined) ?? '0'
  );
}

/**
 * Called inside every write transaction: the saved snapshot of an older generation is stale. The
 * vector table stays current when it was (this write updates it too).
 */
export function bumpWriteGeneration(db: Database.Database): void {
  const pagesCurrent = vectorPagesCurrent(db);
  db.prepare(
    `INSERT INTO meta (key, value) VALUES ('write_generation', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`,
  ).run();
  if (pagesCurrent) markVectorPagesCurrent(db);
}

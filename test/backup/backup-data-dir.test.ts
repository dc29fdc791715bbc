/**
 * `ragent backup`: copies the data directory's SQLite files while another process keeps writing to
 * them, and the copies restore to a consistent state (every row up to some point, none missing).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { backupDataDir } from '../../src/backup/backup-data-dir.ts';
import { isRagentError } from '../../src/errors.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'ragent-backup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function createDatabase(file: string, rows: number): void {
  const database = new Database(file);
  database.pragma('journal_mode = WAL');
  database.exec('CREATE TABLE IF NOT EXISTS items (n INTEGER PRIMARY KEY, payload BLOB NOT NULL)');
  const insert = database.prepare('INSERT INTO items (n, payload) VALUES (?, randomblob(1024))');
  database.transaction(() => {
    for (let n = 1; n <= rows; n++) insert.run(n);
  })();
  database.close();
}

/** A separate process appending rows (n = max + 1) in small transactions until it is killed. */
function startWriter(file: string): { child: ChildProcess; writing: Promise<void> } {
  const script = `
    import Database from 'better-sqlite3';
    const database = new Database(${JSON.stringify(file)});
    database.pragma('busy_timeout = 5000');
    const insert = database.prepare('INSERT INTO items (n, payload) SELECT MAX(n) + 1, randomblob(1024) FROM items');
    let told = false;
    for (;;) {
      insert.run();
      if (!told) { told = true; process.stdout.write('writing\\n'); }
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const writing = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => resolve());
    child.on('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
  });
  return { child, writing };
}

const count = (file: string) => {
  const database = new Database(file, { readonly: true });
  try {
    return database.prepare('SELECT COUNT(*) AS rows, MAX(n) AS top FROM items').get() as {
      rows: number;
      top: number;
    };
  } finally {
    database.close();
  }
};

describe('backupDataDir', () => {
  it('copies every database while a writer is writing, and the copies restore consistently', async () => {
    const dataDir = path.join(work, 'data');
    mkdirSync(dataDir);
    createDatabase(path.join(dataDir, 'index.sqlite'), 20_000);
    createDatabase(path.join(dataDir, 'bot.sqlite'), 10);
    const writer = startWriter(path.join(dataDir, 'index.sqlite'));
    try {
      await writer.writing;
      const target = path.join(work, 'backup');
      const copied = await backupDataDir(dataDir, target);
      expect(copied.map((file) => file.name)).toEqual(['index.sqlite', 'bot.sqlite']);
      // The writer went on meanwhile: the live file has grown past the copy.
      const backedUp = count(path.join(target, 'index.sqlite'));
      await expect.poll(() => count(path.join(dataDir, 'index.sqlite')).top).toBeGreaterThan(backedUp.top);

      // Restore: the copies become a data directory of their own.
      const restored = path.join(work, 'restored');
      mkdirSync(restored);
      for (const file of copied) copyFileSync(path.join(target, file.name), path.join(restored, file.name));
      const rows = count(path.join(restored, 'index.sqlite'));
      expect(rows.top).toBeGreaterThanOrEqual(20_000);
      expect(rows.rows).toBe(rows.top);
      expect(count(path.join(restored, 'bot.sqlite'))).toEqual({ rows: 10, top: 10 });
      const database = new Database(path.join(restored, 'index.sqlite'));
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      database.close();
    } finally {
      writer.child.kill('SIGKILL');
    }
  });

  it('refuses a target that already holds a backup, and a directory without databases', async () => {
    const dataDir = path.join(work, 'data-two');
    mkdirSync(dataDir);
    createDatabase(path.join(dataDir, 'checkpoints.sqlite'), 3);
    const target = path.join(work, 'backup-two');
    await backupDataDir(dataDir, target);
    const again = await backupDataDir(dataDir, target).catch((error: unknown) => error);
    expect(isRagentError(again) && again.message).toBe(
      `${target} already holds checkpoints.sqlite. Back up into a new or empty directory.`,
    );
    const empty = await backupDataDir(path.join(work, 'nothing'), target).catch((error: unknown) => error);
    expect(isRagentError(empty) && empty.code).toBe('INVALID_INPUT');
  });
});

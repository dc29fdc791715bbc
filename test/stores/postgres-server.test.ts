import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/postgres-database.ts';
import { findPostgresBinaries, startPostgresServer } from '../support/postgres-server.ts';

describe('the throwaway test PostgreSQL', () => {
  it('gives each caller its own empty database on a real server', async () => {
    const first = await createTestDatabase();
    const second = await createTestDatabase();
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
      expect(Number.parseInt(rows[0]!.server_version, 10)).toBeGreaterThanOrEqual(14);
      const tables = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = 'public'");
      expect(tables.rowCount).toBe(0);
    } finally {
      await client.end();
    }
  });

  it('starts a second server and removes it again', async () => {
    const server = await startPostgresServer();
    console.info(`test PostgreSQL started in ${server.startMilliseconds} ms`);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.end();
    await server.stop();
    const again = new pg.Client({ connectionString: server.url });
    await expect(again.connect()).rejects.toThrow();
  });

  it('fails loudly with a hint when PG_BIN has no PostgreSQL', () => {
    expect(() => findPostgresBinaries({ PG_BIN: '/nonexistent' })).toThrow(/PG_BIN/);
  });
});

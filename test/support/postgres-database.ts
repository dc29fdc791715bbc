/** A fresh database on the run's test PostgreSQL (see postgres-global-setup.ts), one per call. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('postgresUrl');
  const name = `ragent_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    // FILE_COPY (PostgreSQL 15+) is several times faster than the default for a tiny template.
    const strategy = Number(rows[0]?.server_version_num) >= 150_000 ? ' STRATEGY = FILE_COPY' : '';
    await client.query(`CREATE DATABASE ${name}${strategy}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

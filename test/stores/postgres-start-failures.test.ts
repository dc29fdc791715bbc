/** Bad DATABASE_URLs and schemas against the real test PostgreSQL: one-line messages with the fix. */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { checkPostgres } from '../../src/doctor/check-postgres.ts';
import { RagentError } from '../../src/errors.ts';
import { schemaVersion } from '../../src/stores/postgres/migrations.ts';
import { openDatabase } from '../../src/stores/postgres/open-database.ts';
import { closedPort } from '../support/free-port.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { createTestServices } from '../support/test-services.ts';

const secret = 'Wr0ng-Pa55word-xyz';

async function withRole(url: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(
    `DO $$ BEGIN CREATE ROLE ragent_app LOGIN PASSWORD 'right-password-123'; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
  );
  await admin.end();
  const withPassword = new URL(url);
  withPassword.username = 'ragent_app';
  withPassword.password = secret;
  return withPassword.toString();
}

async function failure(url: string, migrate = true): Promise<RagentError> {
  const error = await openDatabase({ url, poolSize: 2, replicaId: 'x', migrate }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RagentError);
  return error as RagentError;
}

const config = (url: string) =>
  loadConfig({ DATABASE_URL: url, RAGENT_DATA_DIR: '/tmp/ragent-doctor' }, { envFile: false });

describe('PostgreSQL at start-up', () => {
  it('down: DATABASE_UNREACHABLE names DATABASE_URL and the server, never the password', async () => {
    const url = `postgres://ragent:${secret}@127.0.0.1:${await closedPort()}/ragent`;
    const error = await failure(url);
    expect(error.code).toBe('DATABASE_UNREACHABLE');
    expect(error.message).toMatch(/DATABASE_URL/);
    expect(error.message).toContain('127.0.0.1:');
    expect(error.message).not.toContain(secret);
    const [doctor] = await checkPostgres(config(url), 1_000);
    expect(doctor).toMatchObject({ status: 'fail' });
    expect(doctor!.detail).toContain('DATABASE_UNREACHABLE');
    expect(JSON.stringify(doctor)).not.toContain(secret);
  });

  it('down: the services of `ragent start` refuse to start with DATABASE_UNREACHABLE', async () => {
    const url = `postgres://ragent:${secret}@127.0.0.1:${await closedPort()}/ragent`;
    await expect(
      createTestServices({ ollamaUrl: 'http://127.0.0.1:9', environment: { DATABASE_URL: url } }),
    ).rejects.toMatchObject({
      code: 'DATABASE_UNREACHABLE',
      message: expect.stringContaining('DATABASE_URL'),
    });
  });

  it('a wrong password: DATABASE_AUTH_FAILED', async () => {
    const url = await withRole(await createTestDatabase());
    const error = await failure(url);
    expect(error.code).toBe('DATABASE_AUTH_FAILED');
    expect(error.message).toMatch(/password in DATABASE_URL/);
    expect(error.message).not.toContain(secret);
    expect((await checkPostgres(config(url), 2_000))[0]!.detail).toContain('DATABASE_AUTH_FAILED');
  });

  it('a missing database: DATABASE_MISSING with the database to create', async () => {
    const url = new URL(await createTestDatabase());
    url.pathname = '/no_such_database';
    const error = await failure(url.toString());
    expect(error.code).toBe('DATABASE_MISSING');
    expect(error.message).toContain('createdb no_such_database');
  });

  it('an old schema: DATABASE_SCHEMA_OLD when not migrating (doctor), migrated by a start', async () => {
    const url = await createTestDatabase();
    expect((await failure(url, false)).code).toBe('DATABASE_SCHEMA_OLD');
    const [before] = await checkPostgres(config(url), 2_000);
    expect(before).toMatchObject({ status: 'fail' });
    expect(before!.detail).toContain('DATABASE_SCHEMA_OLD');
    expect(before!.fix).toEqual([
      'Start ragent once (`ragent start` applies the migrations), then run the doctor again.',
    ]);
    const database = await openDatabase({ url, poolSize: 2, replicaId: 'x' });
    await database.close();
    const results = await checkPostgres(config(url), 2_000);
    expect(results[0]).toMatchObject({ status: 'pass' });
    expect(results[0]!.detail).toMatch(
      new RegExp(
        `^PostgreSQL \\d+(\\.\\d+)? at 127\\.0\\.0\\.1:\\d+/ragent_\\w+, schema version ${schemaVersion}\\b`,
      ),
    );
    // No QDRANT_URL: the doctor says plainly how the replicas see documents.
    expect(results[1]).toMatchObject({ status: 'warn' });
    expect(results[1]!.detail).toContain('only seen by replicas that share that data directory');
  });

  it('a schema newer than this ragent: says to upgrade ragent', async () => {
    const url = await createTestDatabase();
    const database = await openDatabase({ url, poolSize: 2, replicaId: 'x' });
    await database.pool.query('INSERT INTO ragent_migrations (version) VALUES (99)');
    await database.close();
    const error = await failure(url);
    expect(error.code).toBe('DATABASE_SCHEMA_OLD');
    expect(error.message).toContain('Upgrade ragent');
  });
});

describe('DATABASE_URL in the configuration', () => {
  it('is a secret: its password is scrubbed and a bad value is never echoed', () => {
    const loaded = loadConfig(
      { DATABASE_URL: `postgres://ragent:${secret}@db:5432/ragent` },
      { envFile: false },
    );
    expect(loaded.database).toEqual({ url: `postgres://ragent:${secret}@db:5432/ragent`, poolSize: 10 });
    expect(loaded.secrets).toContain(secret);
    expect(() =>
      loadConfig({ DATABASE_URL: `mysql://ragent:${secret}@db/ragent` }, { envFile: false }),
    ).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.not.stringContaining(secret) }),
    );
  });
});

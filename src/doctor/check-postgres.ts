/**
 * When DATABASE_URL is set: PostgreSQL is reachable with those credentials, new enough, and its schema
 * is the one this ragent needs (migrations applied). Also says plainly how the replicas share the index.
 * Never prints the URL itself (it holds a password): host, port and database only.
 */
import pg from 'pg';
import type { Config } from '../config.ts';
import { isRagentError } from '../errors.ts';
import { databaseAddress, toDatabaseError } from '../stores/postgres/database-errors.ts';
import { schemaVersion } from '../stores/postgres/migrations.ts';
import { sharedIndexWarning } from '../stores/postgres/replica-notes.ts';
import type { CheckResult } from './check-result.ts';

const title = 'Shared state';
const oldestVersion = 14;

export async function checkPostgres(config: Config, timeoutMs: number): Promise<CheckResult[]> {
  const database = config.database;
  if (!database) {
    return [
      {
        title,
        status: 'pass',
        detail: 'one process (SQLite in the data directory); set DATABASE_URL to run several replicas',
      },
    ];
  }
  const address = databaseAddress(database.url);
  const results = [await checkDatabase(database.url, address, timeoutMs)];
  const warning = sharedIndexWarning(config);
  if (warning) {
    results.push({
      title: 'Index of the replicas',
      status: 'warn',
      detail: warning,
      fix: [
        'Set QDRANT_URL for replicas on several hosts, or run every replica with the same RAGENT_DATA_DIR.',
      ],
    });
  }
  return results;
}

async function checkDatabase(url: string, address: string, timeoutMs: number): Promise<CheckResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string; server_version: string }>(
      "SELECT current_setting('server_version_num') AS server_version_num, current_setting('server_version') AS server_version",
    );
    const versionNumber = Number(rows[0]?.server_version_num ?? 0);
    const shownVersion = rows[0]?.server_version.split(' ')[0] ?? 'unknown';
    if (versionNumber < oldestVersion * 10_000) {
      return {
        title,
        status: 'fail',
        detail: `PostgreSQL ${shownVersion} at ${address} is too old (ragent needs ${oldestVersion} or newer)`,
        fix: [`Upgrade PostgreSQL to ${oldestVersion} or newer, or point DATABASE_URL at a newer server.`],
      };
    }
    const applied = await appliedSchema(client);
    if (applied < schemaVersion) {
      return {
        title,
        status: 'fail',
        detail: `PostgreSQL ${shownVersion} at ${address}: schema version ${applied}, this ragent needs ${schemaVersion} (DATABASE_SCHEMA_OLD)`,
        fix: ['Start ragent once (`ragent start` applies the migrations), then run the doctor again.'],
      };
    }
    if (applied > schemaVersion) {
      return {
        title,
        status: 'fail',
        detail: `PostgreSQL ${shownVersion} at ${address}: schema version ${applied} is newer than this ragent (${schemaVersion})`,
        fix: ['Upgrade ragent on this machine to the version the other replicas run.'],
      };
    }
    return {
      title,
      status: 'pass',
      detail: `PostgreSQL ${shownVersion} at ${address}, schema version ${applied} (replicas share state)`,
    };
  } catch (error) {
    const failure = isRagentError(error) ? error : toDatabaseError(error, url);
    return { title, status: 'fail', detail: `${failure.code}: ${failure.message}` };
  } finally {
    await client.end().catch(() => {});
  }
}

async function appliedSchema(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ exists: boolean }>(
    "SELECT to_regclass('ragent_migrations') IS NOT NULL AND to_regclass('checkpoint_migrations') IS NOT NULL AS exists",
  );
  if (!rows[0]?.exists) return 0;
  const version = await client.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM ragent_migrations',
  );
  return version.rows[0]?.version ?? 0;
}

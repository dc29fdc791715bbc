/**
 * Opening the embedded store: one SQLite file (WAL). Memory-mapped I/O stays off (`mmap_size = 0`), and
 * the file, its WAL and shared-memory files are checked for writability at open, so a read-only or
 * vanished data dir is a clear error (INDEX_NOT_WRITABLE) rather than a SIGBUS. (SQLite still maps the
 * small `-shm` wal-index; Node cannot catch a SIGBUS there.) Then the migrations: the format version is
 * checked, columns added since are added, and the compact vector table (vector-pages.ts) is built for a
 * file written before it.
 */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { readMeta, setMeta } from './sqlite-meta.ts';
import { addedColumns, schema, schemaVersion } from './sqlite-schema.ts';
import { rebuildVectorPages, vectorPagesCurrent, vectorPagesSchema } from './vector-pages.ts';

/** The main connection to the store, with what its parts need to report on it. */
export interface SqliteStore {
  readonly file: string;
  readonly db: Database.Database;
  readonly logger: Logger | undefined;
}

/**
 * Opens the index file for writing, with memory-mapped I/O off. A data dir or file that cannot be
 * written is a clear error here, not a crash (SIGBUS) at the first write.
 */
export function openWritable(file: string): Database.Database {
  const directory = path.dirname(file);
  try {
    mkdirSync(directory, { recursive: true });
    accessSync(directory, constants.W_OK);
    for (const candidate of [file, `${file}-wal`, `${file}-shm`]) {
      if (existsSync(candidate)) accessSync(candidate, constants.R_OK | constants.W_OK);
    }
  } catch (error) {
    throw notWritable(file, 'directory or file', error);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file);
    db.pragma('mmap_size = 0');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 10000');
    db.exec(schema);
    db.exec(vectorPagesSchema);
    addMissingColumns(db);
    return db;
  } catch (error) {
    db?.close();
    if (isReadOnlyError(error)) throw notWritable(file, 'file', error);
    throw error;
  }
}

function addMissingColumns(db: Database.Database): void {
  for (const added of addedColumns) {
    const columns = db.prepare(`PRAGMA table_info(${added.table})`).all() as Array<{ name: string }>;
    if (columns.some((column) => column.name === added.column)) continue;
    db.exec(`ALTER TABLE ${added.table} ADD COLUMN ${added.column} ${added.definition}`);
  }
}

/** Records the format version in a new file; a file of another version is INDEX_SCHEMA_MISMATCH. */
export function checkSchemaVersion(db: Database.Database, file: string): void {
  const version = readMeta(db, 'schema_version');
  if (version === undefined) setMeta(db, 'schema_version', schemaVersion);
  else if (version !== schemaVersion) {
    throw new RagentError(
      'INDEX_SCHEMA_MISMATCH',
      errorMessages.INDEX_SCHEMA_MISMATCH({ file, version, schemaVersion }),
    );
  }
}

/**
 * Brings the compact vector table up to date when it is not (a file written before it existed, or
 * written since by an earlier version), in one transaction. A failure leaves the file as it was: it is
 * logged, and the search snapshot is loaded from the children rows until a later open succeeds.
 */
export function ensureVectorPages(store: SqliteStore, onDocument?: (documents: number) => void): void {
  if (vectorPagesCurrent(store.db)) return;
  const started = performance.now();
  try {
    const documents = rebuildVectorPages(store.db, onDocument);
    store.logger?.info(
      { documents, ms: Math.round(performance.now() - started) },
      'index migrated: compact vector table built',
    );
  } catch (error) {
    store.logger?.warn({ err: error }, 'could not build the compact vector table; loading from the rows');
  }
}

/** Runs a write transaction; a read-only, vanished or full disk becomes INDEX_NOT_WRITABLE. */
export function guardWrite<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (isReadOnlyError(error)) throw notWritable(file, 'file', error);
    throw error;
  }
}

function notWritable(file: string, what: string, cause: unknown): RagentError {
  return new RagentError('INDEX_NOT_WRITABLE', errorMessages.INDEX_NOT_WRITABLE({ what, file }), {
    cause,
    details: { file },
  });
}

function isReadOnlyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(READONLY|CANTOPEN|IOERR|PERM|FULL)/.test(code);
}

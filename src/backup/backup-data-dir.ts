/**
 * Online backup of the data directory: each SQLite file ragent keeps there (the index, the thread
 * checkpoints, the bot state) is copied with SQLite's backup API through its own read-only
 * connection, so a running bot goes on reading and writing meanwhile (WAL mode: readers never block
 * the writer). The whole file is copied in one backup step — one consistent snapshot, which a write
 * from another connection cannot restart half-way. Each copy is checked (`PRAGMA quick_check`).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

/** The SQLite files of a data directory, in the order they are copied. */
export const dataFiles = ['index.sqlite', 'checkpoints.sqlite', 'bot.sqlite'] as const;

export interface BackedUpFile {
  name: string;
  bytes: number;
}

export async function backupDataDir(dataDir: string, target: string): Promise<BackedUpFile[]> {
  const present = dataFiles.filter((name) => existsSync(path.join(dataDir, name)));
  if (present.length === 0) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.backupSourceEmpty({ dataDir }));
  }
  const taken = present.filter((name) => existsSync(path.join(target, name)));
  if (taken.length > 0) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.backupTargetTaken({ target, taken }));
  }
  mkdirSync(target, { recursive: true });
  const copied: BackedUpFile[] = [];
  for (const name of present) {
    const destination = path.join(target, name);
    const source = new Database(path.join(dataDir, name), { readonly: true, fileMustExist: true });
    try {
      // Every remaining page in the next step: one snapshot, never restarted by a concurrent write.
      await source.backup(destination, { progress: () => 0x7fffffff });
    } finally {
      source.close();
    }
    checkCopy(destination);
    copied.push({ name, bytes: statSync(destination).size });
  }
  return copied;
}

function checkCopy(file: string): void {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') {
      throw new RagentError(
        'INTERNAL',
        errorMessages.INTERNAL.backupIntegrity({ file, result: String(result) }),
      );
    }
  } finally {
    copy.close();
  }
}

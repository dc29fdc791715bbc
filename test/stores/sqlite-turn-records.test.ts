import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteTurnRecords } from '../../src/stores/sqlite-turn-records.ts';
import { turnRecordsContract } from './contracts/turn-records-contract.ts';

turnRecordsContract('SQLite', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-turn-records-'));
  return {
    open: async () => openSqliteTurnRecords(directory),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import { turnHistoryContract } from './contracts/turn-history-contract.ts';

turnHistoryContract('SQLite', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-turn-records-'));
  return {
    open: async () => openSqliteTurnHistory(directory),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

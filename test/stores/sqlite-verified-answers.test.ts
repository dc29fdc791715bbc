import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqliteVerifiedAnswers } from '../../src/stores/sqlite-verified-answers.ts';
import { verifiedAnswersContract } from './contracts/verified-answers-contract.ts';

verifiedAnswersContract('SQLite', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-verified-'));
  return {
    open: async () => openSqliteVerifiedAnswers(directory),
    dispose: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

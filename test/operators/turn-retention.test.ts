/** RAGENT_RETENTION_DAYS on a real SQLite turn history: old question texts cleared, none stored with 0. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PastTurn } from '../../src/core/turn-history.ts';
import { createLogger } from '../../src/logger.ts';
import { withRetention } from '../../src/operators/turn-retention.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const now = Date.parse('2026-12-01T00:00:00Z');
const record = (id: string, daysAgo: number): PastTurn => ({
  id,
  platform: 'cli',
  scopes: ['shared'],
  threadId: `cli:${id}`,
  user: 'cli',
  question: `question ${id}`,
  startedAt: new Date(now - daysAgo * 24 * 60 * 60 * 1000).toISOString(),
  durationMs: 10,
  outcome: 'answered',
  citedDocuments: [],
});

function directory() {
  const created = mkdtempSync(path.join(tmpdir(), 'ragent-retention-'));
  cleanups.push(() => rmSync(created, { recursive: true, force: true }));
  return created;
}

describe('turn history retention', () => {
  it('clears question texts older than the retention when opened and on its timer, keeping the outcome', async () => {
    const dataDir = directory();
    const raw = openSqliteTurnHistory(dataDir);
    await raw.recordTurn(record('old', 40));
    await raw.recordTurn(record('recent', 10));
    let clock = now;
    const records = withRetention(raw, {
      retentionDays: 30,
      logger: createLogger({ level: 'silent' }),
      intervalMs: 5,
      now: () => clock,
    });
    cleanups.push(() => records.close());
    await vi.waitFor(async () =>
      expect((await records.listTurns()).map((turn) => turn.question)).toEqual(['', 'question recent']),
    );
    clock = now + 21 * 24 * 60 * 60 * 1000;
    await vi.waitFor(async () =>
      expect((await records.listTurns()).map((turn) => [turn.id, turn.question, turn.outcome])).toEqual([
        ['old', '', 'answered'],
        ['recent', '', 'answered'],
      ]),
    );
  });

  it('with 0 days stores outcomes without question text', async () => {
    const records = withRetention(openSqliteTurnHistory(directory()), {
      retentionDays: 0,
      logger: createLogger({ level: 'silent' }),
    });
    cleanups.push(() => records.close());
    await records.recordTurn(record('today', 0));
    expect(await records.listTurns()).toEqual([{ ...record('today', 0), question: '' }]);
  });
});

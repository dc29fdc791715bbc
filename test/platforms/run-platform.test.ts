/**
 * The lifecycle every running platform shares (src/platforms/run-platform.ts), against the real turn
 * runner and a real SQLite store, with an in-test platform: started and told its orphans, then
 * stopped in phases — stop taking at the source, drain, close once — whichever way it is stopped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { createLogger } from '../../src/logger.ts';
import { runPlatform } from '../../src/platforms/run-platform.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { createTurnRunner } from '../../src/turns/turn-runner.ts';
import { heldConversations, inMemoryTurnHistory, noIngestion, testPlatform } from '../support/turn-ports.ts';

const directories: string[] = [];
const stores: CoordinationStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function started(options: { orphan?: boolean } = {}) {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-run-platform-'));
  directories.push(directory);
  if (options.orphan) {
    // A process that crashed with a turn in flight.
    const crashed = openSqliteCoordinationStore(directory);
    stores.push(crashed);
    await crashed.beginTurn({
      key: 'left',
      platform: 'test',
      kind: 'answer',
      location: { thread: 'A' },
      startedAt: 1,
    });
  }
  const store = openSqliteCoordinationStore(directory);
  stores.push(store);
  const lines: Array<{ msg: string; [field: string]: unknown }> = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  const runner = createTurnRunner({
    turnHistory: inMemoryTurnHistory(),
    store,
    conversations: heldConversations(),
    ingestion: noIngestion,
    logger: createLogger({ level: 'silent' }),
    answerTimeoutMs: 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
  });
  const platform = testPlatform();
  const turns = runner.attach(platform);
  const steps: string[] = [];
  const running = await runPlatform({
    name: 'test',
    label: 'Test bot',
    turns,
    logger,
    started: { mode: 'socket' },
    warnings: [{ title: 'Test', status: 'warn', detail: 'replies need a setting', fix: ['Set it.'] }],
    stopTimeoutMs: 1_000,
    stopTaking: async () => {
      steps.push(`stop taking${turns.stopping ? ' (runner stopping)' : ''}`);
    },
    close: async () => {
      steps.push(`close${turns.stopping ? ' (runner stopping)' : ''}`);
    },
  });
  return { running, platform, lines, steps };
}

describe('a running platform', () => {
  it("logs that it started, with its fields and its settings' warnings once, and tells the threads a crash left", async () => {
    const { running, platform, lines } = await started({ orphan: true });
    expect(running.name).toBe('test');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'Test bot started', mode: 'socket' }));
    expect(lines.filter((line) => line.msg === 'replies need a setting')).toEqual([
      expect.objectContaining({ level: 40, fix: ['Set it.'] }),
    ]);
    expect(platform.replies()).toEqual(['restarted']);
  });

  it('stops in phases: stops taking, drains the runner, then closes once and says so', async () => {
    const { running, lines, steps } = await started();
    await running.stop();
    expect(steps).toEqual(['stop taking', 'stop taking (runner stopping)', 'close (runner stopping)']);
    expect(lines.filter((line) => line.msg === 'Test bot stopped')).toHaveLength(1);
  });

  it('closes once however often it is disconnected, having stopped taking first', async () => {
    const { running, lines, steps } = await started();
    await running.stopTaking();
    await Promise.all([running.disconnect(), running.disconnect()]);
    await running.disconnect();
    expect(steps).toEqual(['stop taking', 'stop taking', 'close']);
    expect(lines.filter((line) => line.msg === 'Test bot stopped')).toHaveLength(1);
  });
});

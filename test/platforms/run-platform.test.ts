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

async function started(options: { orphan?: boolean; connectError?: Error; steps?: string[] } = {}) {
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
  const platform = Object.assign(testPlatform(), { logger });
  const turns = runner.attach(platform);
  const steps: string[] = options.steps ?? [];
  const running = await runPlatform({
    platform,
    label: 'Test bot',
    turns,
    connect: async () => {
      steps.push('connect');
      if (options.connectError) throw options.connectError;
      return { mode: 'socket' };
    },
    connectFailure: {
      other: (reason) => `Could not listen for Test events (${reason}). Choose a free port.`,
    },
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

  it('stops in phases: stops taking (once), drains the runner, then closes once and says so', async () => {
    const { running, lines, steps } = await started();
    await running.stop();
    expect(steps).toEqual(['connect', 'stop taking', 'close (runner stopping)']);
    expect(lines.filter((line) => line.msg === 'Test bot stopped')).toHaveLength(1);
  });

  it('closes once however often it is disconnected, having stopped taking first', async () => {
    const { running, lines, steps } = await started();
    await running.stopTaking();
    await Promise.all([running.disconnect(), running.disconnect()]);
    await running.disconnect();
    expect(steps).toEqual(['connect', 'stop taking', 'close']);
    expect(lines.filter((line) => line.msg === 'Test bot stopped')).toHaveLength(1);
  });

  it("gives the platform its stop at the source, run once with the runner's (a lost shared state)", async () => {
    const { running, platform, steps } = await started();
    await Promise.all([platform.stopTaking?.(), platform.stopTaking?.(), running.stopTaking()]);
    expect(steps).toEqual(['connect', 'stop taking']);
  });

  it("closes what a failed connect opened, and says what to fix in the platform's words", async () => {
    const steps: string[] = [];
    const failing = started({ connectError: new Error('port 3000 in use'), steps });
    await expect(failing).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: 'Could not listen for Test events (port 3000 in use). Choose a free port.',
    });
    expect(steps).toEqual(['connect', 'close']);
  });
});

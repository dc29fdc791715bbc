/**
 * CLI commands build the services with the conversations deferred (`conversationsOnFirstUse`): the answer
 * graph and its checkpoint file are made on the first question, not for `docs list` or `search`. Real
 * services in a temp data dir; the checkpoint file shows whether the conversations were built.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { createServices } from '../../src/main.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { testEnvironment } from '../support/test-services.ts';

let ollama: FakeOllama;
let dataDir: string;
beforeAll(async () => {
  ollama = await startFakeOllama();
  dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-deferred-'));
});
afterAll(async () => {
  await ollama.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function services(name: string, conversationsOnFirstUse: boolean) {
  const config = loadConfig(testEnvironment({ ollamaUrl: ollama.url, dataDir: path.join(dataDir, name) }), {
    envFile: false,
  });
  const built = await createServices(config, createLogger({ level: 'silent' }), { conversationsOnFirstUse });
  return { built, checkpoints: path.join(config.dataDir, 'checkpoints.sqlite') };
}

describe('conversations built on first use', () => {
  it('are built at once by default (ragent start), so a failure shows at start', async () => {
    const { built, checkpoints } = await services('eager', false);
    expect(existsSync(checkpoints)).toBe(true);
    await built.close();
  });

  it('are not built for a command that never asks, not even to close them', async () => {
    const { built, checkpoints } = await services('unused', true);
    expect(await built.ingestion.listDocuments(['shared'])).toEqual([]);
    await built.close();
    expect(existsSync(checkpoints)).toBe(false);
  });

  it('are built by the first call, then serve the calls that follow', async () => {
    const { built, checkpoints } = await services('first-use', true);
    expect(existsSync(checkpoints)).toBe(false);
    const [first, second] = await Promise.all([
      built.conversations.hasThread('cli:one'),
      built.conversations.hasThread('cli:two'),
    ]);
    expect([first, second]).toEqual([false, false]);
    expect(existsSync(checkpoints)).toBe(true);
    await built.conversations.forgetThread?.('cli:one');
    await built.close();
  });
});

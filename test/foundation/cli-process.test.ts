/** The `ragent` command as people run it: `node bin/ragent.js …` in a child process. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { closedPort } from './small-http-server.ts';

const bin = fileURLToPath(new URL('../../bin/ragent.js', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let workDir: string;
let ollama: FakeOllama;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-cli-'));
  ollama = await startFakeOllama();
});
afterAll(async () => {
  await ollama.close();
  await rm(workDir, { recursive: true, force: true });
});

/** Runs ragent with a clean environment (nothing inherited but PATH and HOME), in a temp directory. */
function ragent(args: string[], environment: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd: workDir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: workDir,
          RAGENT_DATA_DIR: path.join(workDir, 'data'),
          OLLAMA_BASE_URL: ollama.url,
          ...environment,
        },
        timeout: 55_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.concurrent('ragent as a child process', { timeout: 60_000 }, () => {
  it('prints its help with every command', async () => {
    const run = await ragent(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: ragent');
    for (const command of ['start', 'doctor', 'ingest', 'chat'])
      expect(run.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('doctor passes against a running Ollama with both models', async () => {
    // A generous timeout: this machine may be busy, and the fake answers from the test process.
    const run = await ragent(['doctor', '--timeout', '20']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^✓ Ollama +0\.13\.0/m);
    expect(run.stdout).toMatch(/^✓ Chat model +granite4\.1:8b is pulled/m);
    expect(run.stdout).toMatch(/^✓ Embedding model +qwen3-embedding:0\.6b is pulled/m);
    expect(run.stdout).toContain('Ready');
    expect(run.code).toBe(0);
  });

  it('doctor without Ollama says how to install it and what to pull, and exits 1', async () => {
    const run = await ragent(['doctor'], { OLLAMA_BASE_URL: `http://127.0.0.1:${await closedPort()}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✗ Ollama +not reachable/m);
    expect(run.stdout).toContain('https://ollama.com/download');
    expect(run.stdout).toContain('ollama pull granite4.1:8b');
    expect(run.stdout).toContain('ollama pull qwen3-embedding:0.6b');
  });

  it('doctor explains invalid configuration without echoing secrets or a stack trace', async () => {
    const token = 'xoxp-1234-user-token-secret';
    const run = await ragent(['doctor'], { SLACK_BOT_TOKEN: token, OLLAMA_NUM_CTX: 'big' });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^✗ Configuration/m);
    expect(run.stdout).toContain('SLACK_BOT_TOKEN must be a Slack bot token');
    expect(run.stdout).toContain('OLLAMA_NUM_CTX must be a number (got "big")');
    expect(run.stdout + run.stderr).not.toContain(token);
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at /);
  });

  it('start with no platform configured says what to set and points to ragent chat', async () => {
    const run = await ragent(['start']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no chat platform is configured');
    for (const variable of [
      'SLACK_BOT_TOKEN',
      'SLACK_APP_TOKEN',
      'SLACK_SIGNING_SECRET',
      'DISCORD_TOKEN',
      'DISCORD_APPLICATION_ID',
    ]) {
      expect(run.stdout).toContain(variable);
    }
    expect(run.stdout).toContain('Connecting Slack');
    expect(run.stdout).toContain('Connecting Discord');
    expect(run.stdout).toContain('npx ragent chat');
    expect(run.stderr).toBe('');
  });
});

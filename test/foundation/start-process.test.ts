/** `ragent start` as a real process: the real Discord adapter against the fake Discord, stopped by SIGTERM. */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';

const bin = fileURLToPath(new URL('../../bin/ragent.js', import.meta.url));

let workDir: string;
let discord: FakeDiscord;
let ollama: FakeOllama;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-start-process-'));
  [discord, ollama] = await Promise.all([startFakeDiscord(), startFakeOllama()]);
});
afterAll(async () => {
  await Promise.all([discord.close(), ollama.close()]);
  await rm(workDir, { recursive: true, force: true });
});

describe('ragent start as a process', () => {
  it('connects the configured platform, then on SIGTERM stops cleanly with exit code 0', {
    timeout: 60_000,
  }, async () => {
    const child = spawn(process.execPath, [bin, 'start'], {
      cwd: workDir,
      env: {
        PATH: process.env.PATH ?? '',
        RAGENT_DATA_DIR: path.join(workDir, 'data'),
        OLLAMA_BASE_URL: ollama.url,
        DISCORD_TOKEN: fakeBotToken,
        DISCORD_APPLICATION_ID: fakeApplicationId,
        DISCORD_API_URL: discord.apiUrl,
      },
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Started = the log says so (stderr) and people are told (stdout); the two pipes arrive in any order.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (stderr.includes('"msg":"ragent started"') && stdout.includes('ragent is running on Discord'))
          resolve();
      };
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        check();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        check();
      });
      child.on('exit', () => reject(new Error(`ragent exited before starting:\n${stderr}`)));
    });
    expect(stdout).toContain(
      `ragent is running on Discord (data directory: ${path.join(workDir, 'data')}). Press Ctrl-C to stop.`,
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const lines = stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string });
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('stopping: no new work is taken; finishing work in flight');
    expect(messages.indexOf('platform stopped')).toBeLessThan(messages.indexOf('ragent stopped'));
    expect(stderr).not.toContain(fakeBotToken);
  });
});

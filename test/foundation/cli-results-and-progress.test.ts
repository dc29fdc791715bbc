/**
 * The CLI as a person or a script meets it: results on stdout, progress and errors on stderr; the
 * settings resolved from the project directory wherever it is run; `ask` on an empty scope says so
 * without calling the model.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { makePdf } from '../support/make-pdf.ts';

const bin = fileURLToPath(new URL('../../bin/ragent.js', import.meta.url));
const processTimeout = 60_000;
let project: string;
let ollama: FakeOllama;

beforeAll(async () => {
  project = mkdtempSync(path.join(tmpdir(), 'ragent-project-'));
  writeFileSync(path.join(project, 'package.json'), '{"name":"my-bot","private":true}\n');
  mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
  ollama = await startFakeOllama();
  writeFileSync(
    path.join(project, '.env'),
    `RAGENT_EMBEDDINGS=none\nOLLAMA_BASE_URL=${ollama.url}\nLOG_LEVEL=silent\n`,
  );
});
afterAll(async () => {
  await ollama.close();
  rmSync(project, { recursive: true, force: true });
});

function ragent(
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: project },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('settings come from the project directory', () => {
  it('finds .env and ./data from the nearest package.json upward, wherever it is run', () => {
    const config = loadConfig({}, { cwd: path.join(project, 'src', 'deep') });
    expect(config.dataDir).toBe(path.join(project, 'data'));
    expect(config.embeddings).toBe('none');
    expect(loadConfig({ RAGENT_DATA_DIR: 'store' }, { cwd: project }).dataDir).toBe(
      path.join(project, 'store'),
    );
  });

  it('without a package.json above, uses the working directory', () => {
    const loose = mkdtempSync(path.join(tmpdir(), 'ragent-loose-'));
    try {
      expect(loadConfig({}, { cwd: loose, envFile: false }).dataDir).toBe(path.join(loose, 'data'));
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  });
});

describe('ragent (a real process) run below the project directory', () => {
  it(
    'ingest: summary lines on stdout, progress on stderr; docs list shows the data directory',
    async () => {
      const file = path.join(project, 'guide.pdf');
      writeFileSync(file, await makePdf(['Backups run every night at two.']));
      const below = path.join(project, 'src', 'deep');
      const ingest = await ragent(below, ['ingest', file]);
      expect(ingest.code).toBe(0);
      expect(ingest.stdout).toMatch(/^✓ guide\.pdf: ingested [0-9a-f]{12} · 1 pages, [^\n]+\n$/);
      expect(ingest.stderr).toContain('guide.pdf: reading');
      expect(ingest.stderr).not.toContain('✓');

      const list = await ragent(below, ['docs', 'list']);
      expect(list.stdout).toContain('1 document in shared.');
      expect(list.stdout).toContain(`Index: ${path.join(project, 'data', 'index.sqlite')}`);
      expect(existsSync(path.join(below, 'data'))).toBe(false);
    },
    processTimeout,
  );

  it(
    'ask on a scope without documents says how to add some, and never calls the model',
    async () => {
      const ask = await ragent(project, ['ask', 'How do backups work?', '--scope', 'team']);
      expect(ask.code).toBe(1);
      expect(ask.stdout).toBe('');
      expect(ask.stderr.trim()).toBe(
        'ragent: There are no documents in team yet, so there is nothing to answer from. Add some with ' +
          '`npx ragent ingest <files> --scope team`, then ask again.',
      );
      expect(ollama.chatRequests()).toEqual([]);
    },
    processTimeout,
  );
});

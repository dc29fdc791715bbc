/**
 * The `ragent ingest` and `ragent docs` commands, run as real processes — including one killed with
 * SIGKILL in the middle of an ingest, which must leave no partial document behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { encodeSparseQuery } from '../../src/retrieval/bm25.ts';
import { openChunkIndex } from '../../src/retrieval/open-chunk-index.ts';
import { fixturePath } from './fixtures.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/ragent.js');
const directories: string[] = [];
/**
 * Each test starts several Node processes (node, tsx and, for a PDF, a reader thread each); give them
 * room on a busy machine.
 */
const processTimeout = 300_000;

afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'ragent-cli-ingest-'));
  directories.push(directory);
  return directory;
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `ragent …` in `directory` (its own data dir, no .env), optionally stopping it on some progress (stderr). */
function ragent(directory: string, args: string[], killWhen?: (stderr: string) => boolean): Promise<Run> {
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    cwd: directory,
    env: {
      PATH: process.env.PATH,
      HOME: directory,
      RAGENT_DATA_DIR: path.join(directory, 'data'),
      RAGENT_EMBEDDINGS: 'none',
      RAGENT_INGEST_WORKERS: '2',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (killWhen?.(stderr) && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function withIndex<T>(
  directory: string,
  use: (index: Awaited<ReturnType<typeof openChunkIndex>>) => Promise<T>,
) {
  const config = loadConfig({ RAGENT_DATA_DIR: path.join(directory, 'data') }, { envFile: false });
  const index = await openChunkIndex(config, createLogger({ level: 'silent' }));
  try {
    return await use(index);
  } finally {
    await index.close();
  }
}

describe('ragent ingest (a real process)', () => {
  it(
    'leaves nothing behind when killed mid-ingest, and completes when run again',
    async () => {
      const directory = temporaryDirectory();
      const killed = await ragent(directory, ['ingest', fixturePath('long.pdf')], (stderr) =>
        /long\.pdf: extracting text \d+\/160 pages/.test(stderr),
      );
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.stdout).not.toContain('✓');
      await withIndex(directory, async (index) => {
        expect(await index.listDocuments(['shared'])).toEqual([]);
        const query = 'Section 42 covers topic number';
        expect(
          await index.search({ text: query, sparse: encodeSparseQuery(query) }, { scopes: ['shared'], k: 3 }),
        ).toEqual([]);
      });

      const again = await ragent(directory, ['ingest', fixturePath('long.pdf')]);
      // Progress only on stderr; stdout holds the one result line.
      expect(
        again.stderr
          .trim()
          .split('\n')
          .every((line) => line.startsWith('long.pdf: ')),
      ).toBe(true);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(
        /^✓ long\.pdf: ingested [0-9a-f]{12} · 160 pages, \d+ parents, \d+ children · [\d.]+ s\n$/,
      );
      await withIndex(directory, async (index) => {
        const documents = await index.listDocuments(['shared']);
        expect(documents.map((document) => [document.name, document.pages])).toEqual([['long.pdf', 160]]);
        const query = 'Section 42 covers topic number 294';
        const hits = await index.search(
          { text: query, sparse: encodeSparseQuery(query) },
          { scopes: ['shared'], k: 5 },
        );
        expect(hits.map((hit) => hit.child.sectionPath.join())).toContain('Section 42');
      });
    },
    processTimeout,
  );

  it(
    'ingests the good files of a run, gives each bad one a one-line reason, and exits non-zero',
    async () => {
      const directory = temporaryDirectory();
      const folder = path.join(directory, 'docs');
      const nested = path.join(folder, 'nested');
      mkdirSync(nested, { recursive: true });
      copyFileSync(fixturePath('manual.pdf'), path.join(folder, 'manual.pdf'));
      copyFileSync(fixturePath('encrypted.pdf'), path.join(nested, 'locked.pdf'));
      writeFileSync(path.join(nested, 'notes.md'), '# Notes\n\nRemember the blue lever.\n');
      writeFileSync(path.join(nested, 'image.gif'), 'not walked: wrong extension');
      writeFileSync(path.join(directory, 'fake.pdf'), 'GIF89a this is not a PDF');

      const run = await ragent(directory, ['ingest', folder, 'fake.pdf', 'missing.pdf', '--scope', 'team']);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toMatch(/✓|✗/);
      const lines = run.stdout.trim().split('\n');
      expect(lines).toContain('✗ missing.pdf: no such file or directory');
      expect(run.stdout).toMatch(/^✗ locked\.pdf: locked\.pdf is password-protected\. [^\n]+$/m);
      expect(run.stdout).toMatch(/^✗ fake\.pdf: fake\.pdf is named \.pdf but is not a PDF: [^\n]+$/m);
      expect(run.stdout).toMatch(/^✓ manual\.pdf: ingested [0-9a-f]{12} · 3 pages, /m);
      expect(run.stdout).toMatch(/^✓ notes\.md: ingested [0-9a-f]{12} · 1 pages, 1 parents, 1 children/m);
      expect(lines.at(-1)).toBe('2 ingested or up to date, 3 failed.');

      const list = await ragent(directory, ['docs', 'list', '--scope', 'team']);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/manual\.pdf\s+3\s+\d+\/\d+\s+bm25 only/);
      expect(list.stdout).toContain('2 documents in team.');
      expect(list.stdout).toContain(`Index: ${path.join(directory, 'data', 'index.sqlite')}`);
      const json = await ragent(directory, ['docs', 'list', '--scope', 'team', '--json']);
      const documents = JSON.parse(json.stdout) as Array<{ id: string; name: string }>;
      expect(documents.map((document) => document.name).sort()).toEqual(['manual.pdf', 'notes.md']);

      const manual = documents.find((document) => document.name === 'manual.pdf');
      const removed = await ragent(directory, ['docs', 'remove', manual!.id.slice(0, 10), '--scope', 'team']);
      expect(removed.stdout.trim()).toBe(`Removed manual.pdf (${manual!.id.slice(0, 12)}) from team.`);
      const missing = await ragent(directory, ['docs', 'remove', 'manual.pdf', '--scope', 'team']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/No document "manual\.pdf" in team/);

      const again = await ragent(directory, ['ingest', path.join(nested, 'notes.md'), '--scope', 'team']);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/= notes\.md: unchanged/);
    },
    processTimeout,
  );
});

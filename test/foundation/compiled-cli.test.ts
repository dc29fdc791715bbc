/**
 * The compiled CLI, as the Docker image and `npm ci` installs run it: `tsc -p tsconfig.build.json` into a
 * temp folder next to a copy of bin/ragent.js, with no sources beside it — so anything that still needed
 * a `.ts` file (an import not rewritten, a worker entry) fails here. Also checks which packages each
 * command loads: the heavy ones (platform SDKs, LangChain, pdf.js, pg, Qdrant) only when first needed.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const heavyPackages = [
  '@slack/bolt',
  'discord.js',
  '@langchain/',
  'unpdf',
  'pg',
  '@qdrant/js-client-rest',
  'better-sqlite3',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The packages our compiled modules imported, in the order they were first resolved. */
  packages: string[];
}

let install: string;

/** `node <args…>` in the temp install, with nothing inherited but PATH. */
function node(args: string[], environment: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd: install,
        env: { PATH: process.env.PATH ?? '', HOME: install, ...environment },
        timeout: 110_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        const packages = [...stderr.matchAll(/^package: (\S+)$/gm)].map((match) => match[1] ?? '');
        resolve({ code, stdout, stderr: stderr.replace(/^package: \S+\n/gm, ''), packages });
      },
    );
  });
}

/** `node --import <recorder> bin/ragent.js …` from the temp install, with its own empty data dir. */
function ragent(args: string[], environment: Record<string, string> = {}): Promise<Run> {
  const recorder = path.join(install, 'record-packages.mjs');
  return node(['--import', recorder, path.join(install, 'bin/ragent.js'), ...args], {
    RAGENT_DATA_DIR: path.join(install, 'data'),
    RAGENT_EMBEDDINGS: 'none',
    ...environment,
  });
}

const heavy = (packages: string[]) => [
  ...new Set(packages.filter((name) => heavyPackages.some((prefix) => name.startsWith(prefix)))),
];

beforeAll(async () => {
  install = await mkdtemp(path.join(tmpdir(), 'ragent-compiled-'));
  const built = await node([
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(root, 'tsconfig.build.json'),
    '--outDir',
    path.join(install, 'dist'),
  ]);
  expect(built.stdout + built.stderr).toBe('');
  await mkdir(path.join(install, 'bin'));
  await copyFile(path.join(root, 'bin/ragent.js'), path.join(install, 'bin/ragent.js'));
  await copyFile(path.join(root, 'package.json'), path.join(install, 'package.json'));
  await symlink(path.join(root, 'node_modules'), path.join(install, 'node_modules'), 'dir');
  // A module hook that prints every package a compiled module of ours imports (runs off the main thread).
  await writeFile(
    path.join(install, 'package-hooks.mjs'),
    `export async function resolve(specifier, context, next) {
  const ours = context.parentURL?.startsWith(${JSON.stringify(`file://${install}/dist/`)});
  if (ours && !/^(node:|\\.|file:)/.test(specifier)) process.stderr.write(\`package: \${specifier}\\n\`);
  return next(specifier, context);
}
`,
  );
  await writeFile(
    path.join(install, 'record-packages.mjs'),
    "import { register } from 'node:module';\nregister('./package-hooks.mjs', import.meta.url);\n",
  );
}, 120_000);

afterAll(async () => {
  if (install) await rm(install, { recursive: true, force: true });
});

describe('the compiled CLI (dist/, no sources)', { timeout: 120_000 }, () => {
  it('prints its help without loading any heavy package', async () => {
    const help = await ragent(['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('Usage: ragent');
    expect(help.packages).toContain('commander');
    expect(heavy(help.packages)).toEqual([]);
  });

  it('lists documents on an empty data dir without LangChain, pdf.js, a platform SDK or pg', async () => {
    const list = await ragent(['docs', 'list']);
    expect([list.code, list.stderr]).toEqual([0, '']);
    expect(list.stdout).toContain('No documents in shared.');
    expect(heavy(list.packages)).toEqual(['better-sqlite3']);
  });

  it('ingests a PDF in a worker thread started from the compiled files, then finds it', async () => {
    const ingest = await ragent(['ingest', path.join(root, 'test/fixtures/manual.pdf')]);
    expect([ingest.code, ingest.stdout]).toEqual([0, expect.stringContaining('✓ manual.pdf: ingested')]);
    expect(ingest.packages).not.toContain('@langchain/langgraph');
    const search = await ragent(['search', 'install the widget', '--json']);
    expect(search.code).toBe(0);
    const hits = JSON.parse(search.stdout) as { file: string }[];
    expect(hits.map((hit) => hit.file)).toContain('manual.pdf');
  });
});

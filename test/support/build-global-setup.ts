/**
 * Vitest global setup: brings dist/ up to date before the tests that run `node bin/ragent.js` as a
 * process (`ragent start` replicas, the crash children, the CLI). bin/ragent.js runs dist/ only while no
 * source is newer; otherwise each process compiles the sources it loads through tsx, which about
 * doubles the CPU of every start (some 7.5 s instead of 3.7 s to "ragent is running" here) — paid by
 * dozens of processes in one run. So after a change to src/ the run builds once (as `npm run build`
 * does, some 11 s of CPU); with dist/ current (after `npm ci`, or an earlier run) it builds nothing.
 * The processes then run the compiled form of the same sources, as `npm ci` installs and the image do.
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** When the newest file under `folder` was last changed (0 when it has none). */
function latestChangeMs(folder: string): number {
  let latest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return latest;
}

/** The same test bin/ragent.js makes before it runs dist/cli.js. */
function builtAfterEverySource(): boolean {
  try {
    return statSync(`${root}dist/cli.js`).mtimeMs >= latestChangeMs(`${root}src`);
  } catch {
    return false;
  }
}

export default async function setup(): Promise<void> {
  if (builtAfterEverySource()) return;
  try {
    // Not `npm run build`: it empties dist/ first, and another run of this checkout may be using it.
    await promisify(execFile)(process.execPath, [
      `${root}node_modules/typescript/bin/tsc`,
      '-p',
      `${root}tsconfig.build.json`,
    ]);
  } catch (error) {
    // A type error still emits JavaScript (the typecheck step reports it); without a build, the
    // processes fall back to tsx, slower but the same code.
    const output = (error as { stdout?: string }).stdout ?? String(error);
    process.stderr.write(`build-global-setup: tsc -p tsconfig.build.json failed; continuing:\n${output}\n`);
  }
}

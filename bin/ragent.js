#!/usr/bin/env node
// Runs the compiled JavaScript in dist/ (built by `npm ci` through npm's `prepare`, or `npm run build`)
// when it is there and no source file is newer; otherwise the TypeScript sources through tsx's loader,
// as in development. The check only reads file times: the sources are a few hundred files.
import { readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const compiled = new URL('dist/cli.js', root);

function newestModifiedMs(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

/** dist/ is up to date when it exists and was built after the last change of any source (or there are no sources, as in the image). */
function compiledIsCurrent() {
  let builtMs;
  try {
    builtMs = statSync(compiled).mtimeMs;
  } catch {
    return false;
  }
  try {
    return newestModifiedMs(fileURLToPath(new URL('src', root))) <= builtMs;
  } catch {
    return true;
  }
}

if (compiledIsCurrent()) {
  const { runCli } = await import(compiled.href);
  await runCli(process.argv);
} else {
  // Development: no build, or sources changed since it. tsx compiles each file as it is imported.
  const tsx = await import('tsx/esm/api').catch(() => undefined);
  if (!tsx) {
    process.stderr.write(
      'ragent: dist/ is missing or older than src/, and tsx (a development dependency) is not installed. ' +
        'Run `npm ci` (it builds dist/), or `npm run build`.\n',
    );
    process.exit(1);
  }
  tsx.register();
  const { runCli } = await import('../src/cli.ts');
  await runCli(process.argv);
}

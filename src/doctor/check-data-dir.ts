import { constants } from 'node:fs';
import { access, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckResult } from './check-result.ts';

const title = 'Data directory';

/** The data directory exists and is writable, or can be created (without creating it). */
export async function checkDataDir(dataDir: string): Promise<CheckResult> {
  const fixFor = (step: string) => [
    step,
    'Or set RAGENT_DATA_DIR to a directory this user can write, e.g. RAGENT_DATA_DIR=./data ' +
      '(a relative path is taken from the project directory, where package.json is)',
  ];
  const existing = await statOrUndefined(dataDir);
  if (existing && !existing.isDirectory()) {
    return {
      title,
      status: 'fail',
      detail: `${dataDir} is a file, not a directory`,
      fix: fixFor('Move that file away, or point RAGENT_DATA_DIR elsewhere.'),
    };
  }
  if (existing) {
    const probeFile = path.join(dataDir, `.ragent-doctor-${process.pid}`);
    try {
      await writeFile(probeFile, 'ok');
      await rm(probeFile, { force: true });
      return { title, status: 'pass', detail: `${dataDir} (writable)` };
    } catch (error) {
      return {
        title,
        status: 'fail',
        detail: `${dataDir} is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
        fix: fixFor(`Give this user write access: chmod u+w ${dataDir} (or chown it).`),
      };
    }
  }
  const ancestor = await nearestExistingAncestor(dataDir);
  if (!ancestor.stats.isDirectory()) {
    return {
      title,
      status: 'fail',
      detail: `${dataDir} cannot be created: ${ancestor.path} is a file`,
      fix: fixFor('Choose a path whose parents are directories.'),
    };
  }
  try {
    await access(ancestor.path, constants.W_OK | constants.X_OK);
    return { title, status: 'pass', detail: `${dataDir} (will be created on first use)` };
  } catch {
    return {
      title,
      status: 'fail',
      detail: `${dataDir} cannot be created: ${ancestor.path} is not writable`,
      fix: fixFor(`Create it yourself (mkdir -p ${dataDir}) with write access for this user.`),
    };
  }
}

async function statOrUndefined(target: string) {
  try {
    return await stat(target);
  } catch {
    return undefined;
  }
}

async function nearestExistingAncestor(target: string) {
  let current = path.resolve(target);
  for (;;) {
    const parent = path.dirname(current);
    const stats = await statOrUndefined(parent);
    if (stats) return { path: parent, stats };
    if (parent === current) throw new Error(`no existing ancestor of ${target}`);
    current = parent;
  }
}

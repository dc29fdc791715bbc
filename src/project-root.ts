/**
 * The directory settings are resolved against: the nearest directory at or above the working
 * directory that holds a package.json (the ragent checkout, or the project ragent is installed in),
 * else the working directory itself. So `cd src && ragent docs list` uses the same `.env` and
 * `./data` as running it from the top.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function findProjectRoot(from: string = process.cwd()): string {
  const start = path.resolve(from);
  for (let directory = start; ; directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, 'package.json'))) return directory;
    if (path.dirname(directory) === directory) return start;
  }
}

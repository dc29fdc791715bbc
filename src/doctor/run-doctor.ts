import type { Config } from '../config.ts';
import { checkDataDir } from './check-data-dir.ts';
import { checkIndex } from './check-index-size.ts';
import { checkOllama } from './check-ollama.ts';
import { checkPlatforms } from './check-platforms.ts';
import { checkQdrant } from './check-qdrant.ts';
import type { DoctorReport } from './check-result.ts';
import { checkNodeVersion, checkSqlite } from './check-runtime.ts';

export interface DoctorOptions {
  /** Per HTTP request (default 3 s). */
  timeoutMs?: number;
}

/** Runs every check (the network ones in parallel) and keeps their order for display. */
export async function runDoctor(config: Config, options: DoctorOptions = {}): Promise<DoctorReport> {
  const timeoutMs = options.timeoutMs ?? 3_000;
  const [sqlite, dataDir, ollama, qdrant] = await Promise.all([
    checkSqlite(),
    checkDataDir(config.dataDir),
    checkOllama(config, timeoutMs),
    checkQdrant(config, timeoutMs),
  ]);
  const results = [
    checkNodeVersion(),
    sqlite,
    dataDir,
    ...checkIndex(config),
    ...ollama,
    qdrant,
    ...checkPlatforms(config),
  ];
  return { results, ok: results.every((result) => result.status !== 'fail') };
}

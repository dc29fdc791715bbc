import type { Config } from '../config.ts';
import { checkDataDir } from './check-data-dir.ts';
import { checkIndex } from './check-index-size.ts';
import { checkOcr } from './check-ocr.ts';
import { checkOllama } from './check-ollama.ts';
import { checkOpenAi } from './check-openai.ts';
import { checkPlatforms, checkPlatformsOnline } from './check-platforms.ts';
import { checkPostgres } from './check-postgres.ts';
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
  const usesOllama = config.llmProvider === 'ollama' || config.embeddings === 'ollama';
  const usesOpenAi = config.llmProvider === 'openai' || config.embeddings === 'openai';
  const [sqlite, dataDir, index, ollama, openai, qdrant, postgres, platformsOnline] = await Promise.all([
    checkSqlite(),
    checkDataDir(config.dataDir),
    checkIndex(config, timeoutMs),
    usesOllama ? checkOllama(config, timeoutMs) : Promise.resolve([]),
    usesOpenAi ? checkOpenAi(config, timeoutMs) : Promise.resolve([]),
    checkQdrant(config, timeoutMs),
    checkPostgres(config, timeoutMs),
    checkPlatformsOnline(config, timeoutMs),
  ]);
  const results = [
    checkNodeVersion(),
    sqlite,
    dataDir,
    ...index,
    ...ollama,
    ...openai,
    qdrant,
    ...postgres,
    checkOcr(config),
    ...checkPlatforms(config),
    ...platformsOnline,
  ];
  return { results, ok: results.every((result) => result.status !== 'fail') };
}

import type { Config } from '../config.ts';
import { checkDataDir } from './check-data-dir.ts';
import { checkIndex } from './check-index-size.ts';
import { checkOcr } from './check-ocr.ts';
import { checkOllama } from './check-ollama.ts';
import { checkOpenAi } from './check-openai.ts';
import { checkPostgres } from './check-postgres.ts';
import { checkQdrant } from './check-qdrant.ts';
import type { CheckResult, DoctorReport } from './check-result.ts';
import { checkNodeVersion, checkSqlite } from './check-runtime.ts';

export interface DoctorOptions {
  /** Per HTTP request (default 3 s). */
  timeoutMs?: number;
  /**
   * The chat platforms' checks, given by the caller (the CLI, through the platform registry): doctor
   * sits below the platforms and knows none of them. Unset: no platform is checked.
   */
  platformChecks?(config: Config): CheckResult[];
  /** The platforms' checks that ask each platform's own API (its granted permissions); unset: none. */
  platformChecksOnline?(config: Config, timeoutMs: number): Promise<CheckResult[]>;
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
    options.platformChecksOnline?.(config, timeoutMs) ?? Promise.resolve([]),
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
    ...(options.platformChecks?.(config) ?? []),
    ...platformsOnline,
  ];
  return { results, ok: results.every((result) => result.status !== 'fail') };
}

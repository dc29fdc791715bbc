/**
 * Builds the real services (real SQLite stores in a temp data dir, the real graph) the way
 * `src/main.ts` does, configured for tests: the model is whatever fake Ollama `ollamaUrl` points at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig } from '../../src/config.ts';

import { createLogger, type Logger } from '../../src/logger.ts';
import { type AppServices, createServices } from '../../src/main.ts';

export interface TestServices extends AppServices {
  dataDir: string;
  /** Closes the services and deletes the data dir (unless `keepDataDir`). */
  dispose(options?: { keepDataDir?: boolean }): Promise<void>;
}

export async function createTestServices(options: {
  ollamaUrl: string;
  dataDir?: string;
  /** Extra environment variables (e.g. SLACK_API_URL, RAGENT_ANSWER_TIMEOUT_S). */
  environment?: Record<string, string>;
  /** The services' logger (default: silent), made from the loaded config (its secrets). */
  logger?: (config: Config) => Logger;
}): Promise<TestServices> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'ragent-test-'));
  const config = loadConfig(testEnvironment({ ...options, dataDir }), { envFile: false });
  const services = await createServices(
    config,
    options.logger?.(config) ?? createLogger({ level: 'silent' }),
  );
  return {
    ...services,
    dataDir,
    dispose: async ({ keepDataDir = false } = {}) => {
      await services.close();
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The environment the test services are configured from (also what a `ragent` child process gets). */
export function testEnvironment(options: {
  ollamaUrl: string;
  dataDir: string;
  environment?: Record<string, string>;
}): Record<string, string> {
  return {
    RAGENT_DATA_DIR: options.dataDir,
    OLLAMA_BASE_URL: options.ollamaUrl,
    RAGENT_EMBEDDINGS: 'ollama',
    RAGENT_INGEST_WORKERS: '1',
    ...options.environment,
  };
}

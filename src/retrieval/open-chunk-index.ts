import path from 'node:path';
import type { Config } from '../config.ts';
import type { Scope } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex } from './chunk-index.ts';
import { openSqliteChunkIndex } from './sqlite-chunk-index.ts';

export interface OpenChunkIndexOptions {
  /** Runs a write of one (scope, file name) exclusively across replicas (Qdrant; a PostgreSQL lock). */
  withNameLock?: <Result>(scope: Scope, name: string, work: () => Promise<Result>) => Promise<Result>;
}

/** The embedded SQLite index in `<dataDir>/index.sqlite`, or Qdrant when QDRANT_URL is set. */
export async function openChunkIndex(
  config: Config,
  logger: Logger,
  options: OpenChunkIndexOptions = {},
): Promise<ChunkIndex> {
  if (config.qdrant) {
    const { openQdrantChunkIndex } = await import('./qdrant-chunk-index.ts');
    return openQdrantChunkIndex({ ...config.qdrant, logger, ...options });
  }
  return openSqliteChunkIndex({ file: path.join(config.dataDir, 'index.sqlite'), logger });
}

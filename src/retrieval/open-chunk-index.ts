import path from 'node:path';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex } from './chunk-index.ts';
import { openSqliteChunkIndex } from './sqlite-chunk-index.ts';

/** The embedded SQLite index in `<dataDir>/index.sqlite`, or Qdrant when QDRANT_URL is set. */
export async function openChunkIndex(config: Config, logger: Logger): Promise<ChunkIndex> {
  if (config.qdrant) {
    const { openQdrantChunkIndex } = await import('./qdrant-chunk-index.ts');
    return openQdrantChunkIndex({ ...config.qdrant, logger });
  }
  return openSqliteChunkIndex({ file: path.join(config.dataDir, 'index.sqlite'), logger });
}

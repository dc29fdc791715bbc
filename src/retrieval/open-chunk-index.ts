import type { Config } from '../config.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex } from './chunk-index.ts';

// Placeholder until issue #3 builds the SQLite and Qdrant backends.
export async function openChunkIndex(_config: Config, _logger: Logger): Promise<ChunkIndex> {
  throw new RagentError('INTERNAL', 'The index is not built yet (issue #3).');
}

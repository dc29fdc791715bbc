import type { Config } from '../config.ts';
import type { Ingestion } from '../core/types.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { ChunkIndex, Embedder } from '../retrieval/chunk-index.ts';

export interface IngestionDependencies {
  config: Config;
  logger: Logger;
  index: ChunkIndex;
  embedder: Embedder | undefined;
}

// Placeholder until issue #3 builds the pipeline.
export function createIngestion(_dependencies: IngestionDependencies): Ingestion {
  const notYet = () => Promise.reject(new RagentError('INTERNAL', 'Ingestion is not built yet (issue #3).'));
  return { ingest: notYet, listDocuments: notYet, findDocument: notYet, removeDocument: notYet };
}

import { RagentError } from '../errors.ts';
import type { ChunkIndex, Embedder, Retriever } from './chunk-index.ts';

// Placeholder until issue #3 builds retrieval.
export function createRetriever(_dependencies: {
  index: ChunkIndex;
  embedder: Embedder | undefined;
}): Retriever {
  const notYet = () => Promise.reject(new RagentError('INTERNAL', 'Retrieval is not built yet (issue #3).'));
  return { search: notYet, getParent: notYet };
}

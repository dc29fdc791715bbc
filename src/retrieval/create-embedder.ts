import type { Config } from '../config.ts';
import type { Embedder } from './chunk-index.ts';

// Placeholder until issue #3 builds the batched Ollama embedder. Undefined = BM25 only.
export function createEmbedder(_config: Config): Embedder | undefined {
  return undefined;
}

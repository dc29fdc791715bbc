import type { Config } from '../config.ts';
import type { Embedder } from './chunk-index.ts';
import { OllamaEmbedder } from './ollama-embedder.ts';

/** The dense embedder, or undefined when RAGENT_EMBEDDINGS=none (BM25 only). */
export function createEmbedder(config: Config): Embedder | undefined {
  if (config.embeddings === 'none') return undefined;
  return new OllamaEmbedder({
    baseUrl: config.ollama.baseUrl,
    model: config.ollama.embedModel,
    batchSize: config.embedBatchSize,
    timeoutMs: config.ollama.timeoutMs,
  });
}

/** The embedding model documents should carry: the configured one, or null for BM25 only. */
export function configuredEmbeddingModel(config: Config): string | null {
  return config.embeddings === 'none' ? null : config.ollama.embedModel;
}

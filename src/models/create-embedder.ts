/**
 * The dense embedder picked by RAGENT_EMBEDDINGS (Ollama, an OpenAI-compatible server, or none). Its
 * LangChain client is imported on the first embedding, so building it costs nothing at start.
 */
import type { Config } from '../config.ts';
import type { Embedder } from '../core/model-provider.ts';
import { OllamaEmbedder } from './ollama-embedder.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';

/** The dense embedder, or undefined when RAGENT_EMBEDDINGS=none (BM25 only). */
export function createEmbedder(config: Config): Embedder | undefined {
  if (config.embeddings === 'none') return undefined;
  if (config.embeddings === 'openai') {
    return new OpenAiEmbedder({
      config,
      model: config.openai.embedModel ?? '',
      batchSize: config.embedBatchSize,
      timeoutMs: config.openai.timeoutMs,
    });
  }
  return new OllamaEmbedder({
    baseUrl: config.ollama.baseUrl,
    model: config.ollama.embedModel,
    batchSize: config.embedBatchSize,
    timeoutMs: config.ollama.timeoutMs,
    headers: config.ollama.headers,
  });
}

/** The embedding model documents should carry: the configured one, or null for BM25 only. */
export function configuredEmbeddingModel(config: Config): string | null {
  if (config.embeddings === 'none') return null;
  return config.embeddings === 'openai' ? (config.openai.embedModel ?? null) : config.ollama.embedModel;
}

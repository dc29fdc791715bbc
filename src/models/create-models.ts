/**
 * The one place that picks the model servers: the chat model by RAGENT_LLM_PROVIDER and the embedder
 * by RAGENT_EMBEDDINGS (they may differ, e.g. chat on vLLM and embeddings on Ollama).
 */
import type { Config } from '../config.ts';
import type { ChatModel, Embedder } from '../core/model-provider.ts';
import { createOllamaChatModel } from './ollama-chat-model.ts';
import { OllamaEmbedder } from './ollama-embedder.ts';
import { createOpenAiChatModel } from './openai-chat-model.ts';
import { OpenAiEmbedder } from './openai-embedder.ts';

export function createChatModel(config: Config): ChatModel {
  return config.llmProvider === 'openai' ? createOpenAiChatModel(config) : createOllamaChatModel(config);
}

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

/**
 * The one place that picks the model servers: the chat model by RAGENT_LLM_PROVIDER and the embedder
 * by RAGENT_EMBEDDINGS (they may differ, e.g. chat on vLLM and embeddings on Ollama).
 */
import type { Config } from '../config.ts';
import type { ChatModel } from '../core/model-provider.ts';
import { createOllamaChatModel } from './ollama-chat-model.ts';
import { createOpenAiChatModel } from './openai-chat-model.ts';

// The embedder has its own file: it is needed by commands that never chat (`ragent docs list`,
// `ragent search`), which should not load the chat models' LangChain classes.
export { configuredEmbeddingModel, createEmbedder } from './create-embedder.ts';

export function createChatModel(config: Config): ChatModel {
  return config.llmProvider === 'openai' ? createOpenAiChatModel(config) : createOllamaChatModel(config);
}

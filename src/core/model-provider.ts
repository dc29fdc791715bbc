/**
 * The model provider port: what the graph needs from a chat model (tools, JSON-schema output, token
 * streaming) and what retrieval needs from an embedder. Ollama and any OpenAI-compatible server
 * implement it (src/models/); the composition root picks one by RAGENT_LLM_PROVIDER / RAGENT_EMBEDDINGS.
 */
import type { AIMessage, BaseMessage } from '@langchain/core/messages';

export type ModelProviderName = 'ollama' | 'openai';

export interface JsonSchemaFormat {
  /** A short name for the schema (letters, digits, `_` and `-`), e.g. the call's purpose. */
  name: string;
  schema: Record<string, unknown>;
}

export interface ChatModelCall {
  messages: BaseMessage[];
  /** OpenAI-style function definitions to bind. */
  tools?: ReadonlyArray<Record<string, unknown>>;
  /** Ask for a reply that is JSON matching this schema. */
  jsonSchema?: JsonSchemaFormat;
  /** Ends the call (the caller's deadline and the attempt's timeout together). */
  signal: AbortSignal;
  /** When set, the reply is streamed and each piece of its text is passed here as it arrives. */
  onToken?: (text: string) => void;
}

/** One attempt at one chat call, no retries: the caller owns the retry policy and the LLM limit. */
export interface ChatModel {
  readonly provider: ModelProviderName;
  readonly model: string;
  /** Longest one attempt may take (OLLAMA_TIMEOUT_S / OPENAI_TIMEOUT_S). */
  readonly timeoutMs: number;
  call(request: ChatModelCall): Promise<AIMessage>;
  /** Turns what a failed call threw into the RagentError a user should see (naming the setting to fix). */
  describeFailure(
    error: unknown,
    request: Pick<ChatModelCall, 'tools' | 'jsonSchema'>,
    attempts?: number,
  ): Error;
}

export interface Embedder {
  readonly model: string;
  /** Embeds in batches of the configured size; one vector per text, in order. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

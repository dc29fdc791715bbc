/**
 * The one way the graph talks to the chat model. Each call waits for a slot of the shared LLM limit,
 * runs one attempt on the configured provider (Ollama or OpenAI-compatible, see src/models/) with its
 * own timeout and the caller's abort signal, retries transient failures under the one outside-call
 * policy (outside-calls.ts), records token usage, and turns what is left into a typed RagentError.
 */
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import type { Config } from '../config.ts';
import type { ChatModel } from '../core/model-provider.ts';
import { describeError, isRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createChatModel } from '../models/create-models.ts';
import {
  classifyFailure,
  defaultRetryPolicy,
  type RetryPolicy,
  withAttemptTimeout,
  withRetry,
} from '../outside-calls.ts';

export type { RetryPolicy } from '../outside-calls.ts';
export { defaultRetryPolicy } from '../outside-calls.ts';

export interface ChatRequest {
  /** What the call is for (logs): rewrite, orchestrator, compress … */
  purpose: string;
  messages: BaseMessage[];
  /** OpenAI-style function definitions to bind. */
  tools?: ReadonlyArray<Record<string, unknown>>;
  /** A JSON schema the reply must match (structured output). */
  format?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * Streams the reply: each piece of its text as it arrives. A call that already passed on text is
   * not retried (the listener would see it twice).
   */
  onToken?: (text: string) => void;
}

export interface ModelClient {
  chat(request: ChatRequest): Promise<AIMessage>;
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  llmCalls: number;
}

export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, llmCalls: 0 };
}

/** Waits for a slot of the shared LLM limit; resolves to the release function. */
export type AcquireSlot = (signal?: AbortSignal) => Promise<() => void>;

export interface ModelClientOptions {
  config: Config;
  logger: Logger;
  acquire: AcquireSlot;
  usage: Usage;
  retry?: RetryPolicy;
  /** The provider (default: the one the config names). */
  chatModel?: ChatModel;
}

export function createModelClient(options: ModelClientOptions): ModelClient {
  const { config, logger, usage } = options;
  const chatModel = options.chatModel ?? createChatModel(config);
  const policy = options.retry ?? defaultRetryPolicy;
  const attemptTimeoutMs = Math.min(chatModel.timeoutMs, config.limits.nodeTimeoutMs);

  return {
    async chat(request) {
      const jsonSchema = request.format
        ? { name: schemaName(request.purpose), schema: request.format }
        : undefined;
      const features = {
        ...(request.tools ? { tools: request.tools } : {}),
        ...(jsonSchema ? { jsonSchema } : {}),
      };
      let streamed = false;
      let attempts = 0;
      const onToken = request.onToken;
      const attempt = async (): Promise<AIMessage> => {
        const release = await options.acquire(request.signal);
        attempts++;
        try {
          const reply = await withAttemptTimeout(attemptTimeoutMs, request.signal, (signal) =>
            chatModel.call({
              messages: request.messages,
              ...features,
              signal,
              ...(onToken
                ? {
                    onToken: (text: string) => {
                      streamed = true;
                      onToken(text);
                    },
                  }
                : {}),
            }),
          );
          usage.llmCalls++;
          usage.promptTokens += reply.usage_metadata?.input_tokens ?? 0;
          usage.completionTokens += reply.usage_metadata?.output_tokens ?? 0;
          return reply;
        } finally {
          release();
        }
      };
      try {
        return await withRetry(attempt, {
          policy,
          ...(request.signal ? { signal: request.signal } : {}),
          onFailure: ({ error, failure, attempt: number, delayMs }) => {
            logger.info(
              {
                purpose: request.purpose,
                provider: chatModel.provider,
                attempt: number,
                failure: failure.kind,
                status: failure.status,
                retryInMs: delayMs,
                error: describeError(error),
              },
              'chat model call failed',
            );
          },
          ...(onToken
            ? {
                classify: (error: unknown) => {
                  const failure = classifyFailure(error);
                  return streamed ? { ...failure, retryable: false } : failure;
                },
              }
            : {}),
        });
      } catch (error) {
        request.signal?.throwIfAborted();
        if (isRagentError(error)) throw error;
        throw chatModel.describeFailure(error, features, attempts);
      }
    },
  };
}

/** A schema name servers accept: letters, digits, `_` and `-`. */
function schemaName(purpose: string): string {
  return purpose.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'reply';
}

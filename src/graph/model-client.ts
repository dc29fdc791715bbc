/**
 * The one way the graph talks to the chat model. Each call waits for a slot of the shared LLM limit,
 * runs ChatOllama (temperature 0, seed 42, num_ctx from the config) with its own abort signal, retries
 * transient Ollama failures with bounded backoff, records token usage, and turns what is left into a
 * typed RagentError.
 */
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import { ChatOllama } from '@langchain/ollama';
import type { Config } from '../config.ts';
import { describeError, RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';

export interface ChatRequest {
  /** What the call is for (logs): rewrite, orchestrator, compress … */
  purpose: string;
  messages: BaseMessage[];
  /** OpenAI-style function definitions to bind. */
  tools?: ReadonlyArray<Record<string, unknown>>;
  /** A JSON schema for structured output (Ollama's `format`). */
  format?: Record<string, unknown>;
  signal?: AbortSignal;
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

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  attempts: number;
  /** First backoff; doubles each retry, capped at 8 s, with jitter. */
  baseDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 3, baseDelayMs: 500 };

/** Waits for a slot of the shared LLM limit; resolves to the release function. */
export type AcquireSlot = (signal?: AbortSignal) => Promise<() => void>;

export interface OllamaModelClientOptions {
  config: Config;
  logger: Logger;
  acquire: AcquireSlot;
  usage: Usage;
  retry?: RetryPolicy;
}

export function createOllamaModelClient(options: OllamaModelClientOptions): ModelClient {
  const { config, logger, usage } = options;
  const retry = options.retry ?? defaultRetryPolicy;
  const attemptTimeoutMs = Math.min(config.ollama.timeoutMs, config.limits.nodeTimeoutMs);

  const attempt = async (request: ChatRequest): Promise<AIMessage> => {
    const signals = [AbortSignal.timeout(attemptTimeoutMs)];
    if (request.signal) signals.push(request.signal);
    const signal = AbortSignal.any(signals);
    const model = new ChatOllama({
      baseUrl: config.ollama.baseUrl,
      model: config.ollama.model,
      temperature: config.ollama.temperature,
      seed: config.ollama.seed,
      numCtx: config.ollama.numCtx,
      maxRetries: 0,
      checkOrPullModel: false,
      ...(request.format ? { format: request.format } : {}),
      fetch: (input: Parameters<typeof fetch>[0], init?: RequestInit) =>
        fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal }),
    });
    const runnable = request.tools ? model.bindTools([...request.tools]) : model;
    const release = await options.acquire(request.signal);
    try {
      const reply = (await runnable.invoke(request.messages, { signal })) as AIMessage;
      if (signal.aborted) throw signal.reason;
      usage.llmCalls++;
      usage.promptTokens += reply.usage_metadata?.input_tokens ?? 0;
      usage.completionTokens += reply.usage_metadata?.output_tokens ?? 0;
      return reply;
    } finally {
      release();
    }
  };

  return {
    async chat(request) {
      let lastError: unknown;
      for (let index = 0; index < retry.attempts; index++) {
        if (request.signal?.aborted) throw request.signal.reason;
        try {
          return await attempt(request);
        } catch (error) {
          if (request.signal?.aborted) throw request.signal.reason;
          const failure = classifyOllamaFailure(error, config);
          lastError = failure;
          logger.info(
            { purpose: request.purpose, attempt: index + 1, code: failure.code, error: describeError(error) },
            'chat model call failed',
          );
          if (!isRetryable(failure) || index === retry.attempts - 1) throw failure;
          await sleep(backoff(retry, index), request.signal);
        }
      }
      throw lastError;
    },
  };
}

function isRetryable(error: RagentError): boolean {
  return error.code !== 'OLLAMA_MODEL_MISSING';
}

function backoff(retry: RetryPolicy, index: number): number {
  const base = Math.min(8_000, retry.baseDelayMs * 2 ** index);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

/** Turns whatever the Ollama client threw into the RagentError a user should see. */
export function classifyOllamaFailure(error: unknown, config: Config): RagentError {
  if (error instanceof RagentError) return error;
  const text = describeChain(error);
  const status = (error as { status_code?: number }).status_code;
  const model = config.ollama.model;
  const details = { model, baseUrl: config.ollama.baseUrl, status };
  if ((status === 404 || /\b404\b/.test(text)) && /not found|pull/i.test(text)) {
    return new RagentError(
      'OLLAMA_MODEL_MISSING',
      `The model "${model}" is not available in Ollama. Pull it with \`ollama pull ${model}\`, or set OLLAMA_MODEL to a model you have.`,
      { cause: error, details },
    );
  }
  if (
    /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|fetch failed|ECONNRESET|socket hang up|other side closed|terminated/i.test(
      text,
    )
  ) {
    return new RagentError(
      'OLLAMA_UNREACHABLE',
      `Could not reach Ollama at ${config.ollama.baseUrl}. Start it (\`ollama serve\`) or fix OLLAMA_BASE_URL, then ask again.`,
      { cause: error, details },
    );
  }
  if (/TimeoutError|timed? ?out|aborted/i.test(text)) {
    return new RagentError(
      'OLLAMA_FAILED',
      `Ollama did not answer in time (model "${model}"). It may be overloaded or still loading the model; try again in a moment.`,
      { cause: error, details },
    );
  }
  return new RagentError(
    'OLLAMA_FAILED',
    `Ollama failed while answering (model "${model}"): ${firstLine(describeError(error))}. Try again in a moment; if it keeps failing, check the Ollama log.`,
    { cause: error, details },
  );
}

function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    if (current instanceof Error) {
      parts.push(`${current.name}: ${current.message}`);
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string') parts.push(code);
      current = current.cause;
    } else {
      parts.push(String(current));
      break;
    }
  }
  return parts.join(' | ');
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

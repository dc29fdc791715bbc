/**
 * Dense embeddings from Ollama through @langchain/ollama. `embedDocuments` sends every text in one
 * request, so batching (RAGENT_EMBED_BATCH) happens here. Transient failures (HTTP 5xx, dropped
 * connections, malformed replies) are retried a bounded number of times with backoff; the others
 * become typed errors at once. Vectors come back L2-normalised.
 */
import { OllamaEmbeddings } from '@langchain/ollama';
import { describeError, RagentError } from '../errors.ts';
import type { Embedder } from './chunk-index.ts';
import { normalized } from './vector-codec.ts';

export interface OllamaEmbedderOptions {
  baseUrl: string;
  model: string;
  batchSize: number;
  timeoutMs: number;
  /** Attempts per batch for transient failures (default 3). */
  attempts?: number;
  /** First backoff delay; doubles each retry (default 250 ms). */
  backoffMs?: number;
}

export class OllamaEmbedder implements Embedder {
  readonly model: string;
  /** Known after the first successful call. */
  dimension: number | null = null;
  private readonly options: OllamaEmbedderOptions;

  constructor(options: OllamaEmbedderOptions) {
    this.options = options;
    this.model = options.model;
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.options.batchSize) {
      const batch = texts.slice(start, start + this.options.batchSize);
      vectors.push(...(await this.embedBatch(batch, options.signal)));
    }
    return vectors;
  }

  private async embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const attempts = this.options.attempts ?? 3;
    let delay = this.options.backoffMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const raw = await this.client(signal).embedDocuments(texts);
        return this.check(raw, texts.length);
      } catch (error) {
        signal?.throwIfAborted();
        const typed = this.classify(error);
        if (!isTransient(typed)) throw typed;
        if (attempt >= attempts) throw this.failed(typed, attempts);
        await sleep(delay, signal);
        delay *= 2;
      }
    }
  }

  private client(signal: AbortSignal | undefined): OllamaEmbeddings {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    return new OllamaEmbeddings({
      baseUrl: this.options.baseUrl,
      model: this.options.model,
      truncate: true,
      maxRetries: 0,
      fetch: (input, init) => fetch(input, { ...init, signal: combined }),
    });
  }

  private check(raw: unknown, expected: number): Float32Array[] {
    if (!Array.isArray(raw) || raw.length !== expected) {
      throw new TransientFailure(
        `Ollama returned ${Array.isArray(raw) ? raw.length : 'no'} vectors for ${expected} texts`,
      );
    }
    return raw.map((vector) => {
      if (!Array.isArray(vector) || vector.length === 0)
        throw new TransientFailure('Ollama returned an empty vector');
      if (this.dimension !== null && vector.length !== this.dimension) {
        throw new RagentError(
          'OLLAMA_FAILED',
          `Ollama's ${this.model} returned vectors of ${vector.length} dimensions after ${this.dimension}. ` +
            'Check that OLLAMA_EMBED_MODEL names one model and try again.',
        );
      }
      this.dimension = vector.length;
      return normalized(Float32Array.from(vector as number[]));
    });
  }

  private failed(failure: TransientFailure, attempts: number): RagentError {
    return new RagentError(
      'OLLAMA_FAILED',
      `Ollama at ${this.options.baseUrl} failed to embed with ${this.model} (${failure.message}; ` +
        `${attempts} attempts). Check \`ollama ps\` and the Ollama log, then try again.`,
      { cause: failure.cause ?? failure },
    );
  }

  private classify(error: unknown): RagentError | TransientFailure {
    if (error instanceof RagentError || error instanceof TransientFailure) return error;
    const status = statusOf(error);
    const message = describeError(error);
    const url = this.options.baseUrl;
    if (status === 404 || /model .*not found|try pulling/i.test(message)) {
      return new RagentError(
        'OLLAMA_MODEL_MISSING',
        `The embedding model ${this.model} is not available in Ollama at ${url}. ` +
          `Run \`ollama pull ${this.model}\`, or set OLLAMA_EMBED_MODEL to a model you have ` +
          '(or RAGENT_EMBEDDINGS=none for BM25-only search).',
        { cause: error },
      );
    }
    if (isTimeout(error)) {
      return new TransientFailure(
        `Ollama at ${url} did not answer within ${Math.round(this.options.timeoutMs / 1000)} s`,
        error,
      );
    }
    if (isConnectionRefused(error)) {
      return new RagentError(
        'OLLAMA_UNREACHABLE',
        `Ollama is not reachable at ${url}. Start it with \`ollama serve\` (or fix OLLAMA_BASE_URL), ` +
          'or set RAGENT_EMBEDDINGS=none to search with BM25 only.',
        { cause: error },
      );
    }
    if (status !== undefined && status >= 400 && status < 500) {
      return new RagentError('OLLAMA_FAILED', `Ollama refused the embedding request: ${message}.`, {
        cause: error,
      });
    }
    return new TransientFailure(message, error);
  }
}

/** A failure worth retrying; becomes OLLAMA_FAILED when the attempts run out. */
class TransientFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

function isTransient(error: RagentError | TransientFailure): error is TransientFailure {
  return error instanceof TransientFailure;
}

function statusOf(error: unknown): number | undefined {
  const value = (error as { status_code?: unknown; status?: unknown } | null) ?? {};
  const status = value.status_code ?? value.status;
  return typeof status === 'number' ? status : undefined;
}

function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 5) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function isConnectionRefused(error: unknown): boolean {
  return causeChain(error).some((entry) => {
    const code = (entry as { code?: unknown }).code;
    return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'EAI_AGAIN';
  });
}

function isTimeout(error: unknown): boolean {
  return causeChain(error).some((entry) => (entry as { name?: unknown }).name === 'TimeoutError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * What both embedders share: batches of the configured size, one timeout per attempt, the one retry
 * policy (outside-calls.ts) for transient failures, a check of the vectors that came back, and
 * L2-normalisation. A provider supplies only the request and the wording of its failures.
 */
import type { Embedder } from '../core/model-provider.ts';
import type { RagentError } from '../errors.ts';
import { classifyFailure, type RetryPolicy, withAttemptTimeout, withRetry } from '../outside-calls.ts';
import { normalized } from '../retrieval/vector-codec.ts';

export interface BatchEmbedderOptions {
  model: string;
  batchSize: number;
  timeoutMs: number;
  /** Attempts per batch for transient failures (default 3). */
  attempts?: number;
  /** First backoff delay; doubles each retry (default 250 ms). */
  backoffMs?: number;
}

/** A reply that is not one vector per text: worth another try, then a failure. */
export class MalformedEmbeddings extends Error {
  override readonly name = 'MalformedEmbeddings';
}

export abstract class BatchEmbedder implements Embedder {
  readonly model: string;
  /** Known after the first successful call. */
  dimension: number | null = null;
  protected readonly settings: BatchEmbedderOptions;

  constructor(options: BatchEmbedderOptions) {
    this.settings = options;
    this.model = options.model;
  }

  /** One request for one batch. */
  protected abstract request(texts: string[], signal: AbortSignal): Promise<unknown>;
  /** The error a person sees when a batch failed for good. */
  protected abstract describeFailure(error: unknown, attempts: number): RagentError;
  /** The error when the model changes its dimension between calls. */
  protected abstract dimensionChanged(from: number, to: number): RagentError;

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.settings.batchSize) {
      const batch = texts.slice(start, start + this.settings.batchSize);
      vectors.push(...(await this.embedBatch(batch, options.signal)));
    }
    return vectors;
  }

  private async embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const policy: RetryPolicy = {
      attempts: this.settings.attempts ?? 3,
      baseDelayMs: this.settings.backoffMs ?? 250,
    };
    let attempts = 0;
    try {
      return await withRetry(
        async (attempt) => {
          attempts = attempt;
          const raw = await withAttemptTimeout(this.settings.timeoutMs, signal, (joined) =>
            this.request(texts, joined),
          );
          return this.check(raw, texts.length);
        },
        {
          policy,
          ...(signal ? { signal } : {}),
          classify: (error) =>
            error instanceof MalformedEmbeddings
              ? { kind: 'malformed', retryable: true, reason: error.message }
              : isFinal(error)
                ? { kind: 'rejected', retryable: false, reason: 'final' }
                : classifyFailure(error),
        },
      );
    } catch (error) {
      signal?.throwIfAborted();
      if (isFinal(error)) throw error;
      throw this.describeFailure(error, attempts);
    }
  }

  private check(raw: unknown, expected: number): Float32Array[] {
    if (!Array.isArray(raw) || raw.length !== expected) {
      throw new MalformedEmbeddings(
        `${Array.isArray(raw) ? raw.length : 'no'} vectors came back for ${expected} texts`,
      );
    }
    return raw.map((vector) => {
      if (!Array.isArray(vector) || vector.length === 0)
        throw new MalformedEmbeddings('an empty vector came back');
      if (this.dimension !== null && vector.length !== this.dimension)
        throw this.dimensionChanged(this.dimension, vector.length);
      this.dimension = vector.length;
      return normalized(Float32Array.from(vector as number[]));
    });
  }
}

function isFinal(error: unknown): boolean {
  return error instanceof Error && error.name === 'RagentError';
}

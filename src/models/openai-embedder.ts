/**
 * Dense embeddings from an OpenAI-compatible server (`/v1/embeddings` through @langchain/openai), as
 * plain floats (some servers do not speak base64). Batching, retries and checks live in BatchEmbedder.
 */
import type { Config } from '../config.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { BatchEmbedder, type BatchEmbedderOptions } from './batch-embedder.ts';
import { describeModelFailure } from './model-failure.ts';
import { openAiClientOptions } from './openai-client-options.ts';

export interface OpenAiEmbedderOptions extends BatchEmbedderOptions {
  config: Config;
}

export class OpenAiEmbedder extends BatchEmbedder {
  private readonly config: Config;

  constructor(options: OpenAiEmbedderOptions) {
    super(options);
    this.config = options.config;
  }

  protected async request(texts: string[], signal: AbortSignal): Promise<unknown> {
    // Imported on the first embedding: LangChain is heavy, and most commands never embed.
    const { OpenAIEmbeddings } = await import('@langchain/openai');
    const client = new OpenAIEmbeddings({
      model: this.model,
      batchSize: texts.length,
      maxRetries: 0,
      timeout: this.settings.timeoutMs,
      encodingFormat: 'float',
      ...openAiClientOptions(this.config),
    });
    return withSignal(client.embedDocuments(texts), signal);
  }

  protected describeFailure(error: unknown, attempts: number): RagentError {
    return describeModelFailure(error, {
      provider: 'openai',
      baseUrl: this.config.openai.baseUrl,
      model: this.model,
      modelVariable: 'OPENAI_EMBED_MODEL',
      task: 'embedding',
      attempts,
    });
  }

  protected dimensionChanged(from: number, to: number): RagentError {
    return new RagentError(
      'OPENAI_FAILED',
      errorMessages.OPENAI_FAILED.embeddingDimensionsChanged({ model: this.model, to, from }),
    );
  }
}

/** OpenAIEmbeddings takes no per-call signal: stop waiting when ours aborts (the request's own timeout ends it). */
function withSignal<Result>(work: Promise<Result>, signal: AbortSignal): Promise<Result> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

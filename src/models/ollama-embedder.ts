/**
 * Dense embeddings from Ollama (`/api/embed` through @langchain/ollama, OLLAMA_HEADERS / OLLAMA_API_KEY
 * on every request). Batching, retries and checks live in BatchEmbedder.
 */
import { errorMessageAdditions, errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { BatchEmbedder, type BatchEmbedderOptions } from './batch-embedder.ts';
import { describeModelFailure } from './model-failure.ts';

export interface OllamaEmbedderOptions extends BatchEmbedderOptions {
  baseUrl: string;
  /** Sent with every request (a proxy's bearer token or keys). */
  headers?: Readonly<Record<string, string>>;
}

export class OllamaEmbedder extends BatchEmbedder {
  private readonly connection: OllamaEmbedderOptions;

  constructor(options: OllamaEmbedderOptions) {
    super(options);
    this.connection = options;
  }

  protected async request(texts: string[], signal: AbortSignal): Promise<unknown> {
    // Imported on the first embedding: LangChain is heavy, and most commands never embed.
    const { OllamaEmbeddings } = await import('@langchain/ollama');
    const headers = this.connection.headers ?? {};
    const client = new OllamaEmbeddings({
      baseUrl: this.connection.baseUrl,
      model: this.model,
      truncate: true,
      maxRetries: 0,
      ...(Object.keys(headers).length > 0 ? { headers: { ...headers } } : {}),
      fetch: (input, init) => fetch(input, { ...init, signal }),
    });
    return client.embedDocuments(texts);
  }

  protected describeFailure(error: unknown, attempts: number): RagentError {
    const described = describeModelFailure(error, {
      provider: 'ollama',
      baseUrl: this.connection.baseUrl,
      model: this.model,
      modelVariable: 'OLLAMA_EMBED_MODEL',
      task: 'embedding',
      attempts,
    });
    if (described.code === 'OLLAMA_MODEL_MISSING' || described.code === 'OLLAMA_UNREACHABLE') {
      return new RagentError(
        described.code,
        errorMessageAdditions.embeddingsCanBeOff({ message: described.message }),
        { cause: error, ...(described.details ? { details: described.details } : {}) },
      );
    }
    return described;
  }

  protected dimensionChanged(from: number, to: number): RagentError {
    return new RagentError(
      'OLLAMA_FAILED',
      errorMessages.OLLAMA_FAILED.embeddingDimensionsChanged({ model: this.model, to, from }),
    );
  }
}

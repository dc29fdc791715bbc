/**
 * What every step of the Qdrant backend shares: the client, the collection, where failures are reported,
 * and how a failed request becomes a RagentError (QDRANT_UNREACHABLE or QDRANT_FAILED).
 */
import { QdrantClient } from '@qdrant/js-client-rest';
import { errorMessages } from '../error-messages-en.ts';
import { describeError, RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { classifyFailure, serviceError } from '../outside-calls.ts';

export interface QdrantConnection {
  readonly client: QdrantClient;
  readonly collection: string;
  /** The server's address, named in the context of an error (never in its message). */
  readonly url: string;
  readonly logger: Logger | undefined;
  /** Points per upsert (and per page when chunks are copied). */
  readonly batchSize: number;
}

export function connectQdrant(options: {
  url: string;
  apiKey: string | undefined;
  collection: string;
  logger?: Logger;
  batchSize?: number;
  /** Per request (default 30 s). */
  timeoutMs?: number;
}): QdrantConnection {
  return {
    client: new QdrantClient({
      url: options.url,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      checkCompatibility: false,
      timeout: options.timeoutMs ?? 30_000,
    }),
    collection: options.collection,
    url: options.url,
    logger: options.logger,
    batchSize: options.batchSize ?? 256,
  };
}

/** Runs `work`; a failure (not already a RagentError) is reported as failing to do `what`. */
export async function callQdrant<Result>(
  connection: QdrantConnection,
  what: string,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RagentError) throw error;
    const failure = classifyFailure(error);
    const context = {
      service: 'qdrant',
      url: connection.url,
      failure,
      cause: error,
      extra: { collection: connection.collection, operation: what },
    };
    if (failure.kind === 'unreachable' || failure.kind === 'disconnected') {
      throw serviceError(
        'QDRANT_UNREACHABLE',
        errorMessages.QDRANT_UNREACHABLE({ reason: failure.reason }),
        context,
      );
    }
    if (failure.kind === 'unauthorized') {
      throw serviceError(
        'QDRANT_FAILED',
        errorMessages.QDRANT_FAILED.apiKeyRefused({ reason: failure.reason }),
        context,
      );
    }
    throw serviceError(
      'QDRANT_FAILED',
      errorMessages.QDRANT_FAILED.operationFailed({
        what,
        collection: connection.collection,
        reason: firstLine(describeError(error)),
      }),
      context,
    );
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

/**
 * Typed errors. Every failure a user can meet is a `RagentError` with a stable `code`,
 * a message fit to show a person (what went wrong and what to do), and the underlying `cause`
 * for the log. Adapters render these; the core only throws them.
 */

export const errorCodes = [
  'CONFIG_INVALID',
  /** A platform or other outside service could not be reached over the network. */
  'NETWORK_UNREACHABLE',
  'OLLAMA_UNREACHABLE',
  'OLLAMA_MODEL_MISSING',
  'OLLAMA_FAILED',
  'OPENAI_UNREACHABLE',
  'OPENAI_MODEL_MISSING',
  'OPENAI_FAILED',
  /** The model server refused our credentials (OPENAI_API_KEY, OLLAMA_API_KEY / OLLAMA_HEADERS). */
  'MODEL_AUTH_FAILED',
  /** The model server kept answering 429 after the retries. */
  'MODEL_RATE_LIMITED',
  /** The model server refuses tool calling or JSON-schema output. */
  'MODEL_FEATURE_UNSUPPORTED',
  'MODEL_OUTPUT_INVALID',
  'QDRANT_UNREACHABLE',
  'QDRANT_FAILED',
  'INDEX_MODEL_MISMATCH',
  /** The index was written by another version of ragent's storage format. */
  'INDEX_SCHEMA_MISMATCH',
  'DATABASE_UNREACHABLE',
  'DATABASE_AUTH_FAILED',
  'DATABASE_MISSING',
  'DATABASE_SCHEMA_OLD',
  'DATABASE_LOST',
  'DATABASE_FAILED',
  'INDEX_NOT_WRITABLE',
  'FILE_EMPTY',
  'FILE_TOO_LARGE',
  'FILE_UNSUPPORTED',
  'PDF_CORRUPT',
  'PDF_ENCRYPTED',
  'PDF_NO_TEXT',
  'INGEST_TOO_MANY_PAGES',
  'INGEST_TEXT_TOO_LARGE',
  'INGEST_CONTENT_TOO_LARGE',
  'INGEST_TOO_MANY_CHUNKS',
  'INGEST_TIMEOUT',
  'INGEST_OUT_OF_MEMORY',
  'INGEST_CANCELLED',
  'DOCUMENT_NOT_FOUND',
  'SCOPE_EMPTY',
  'PERMISSION_DENIED',
  'DOWNLOAD_FAILED',
  'ANSWER_TIMEOUT',
  'SHUTTING_DOWN',
  'INVALID_INPUT',
  /** A channel link that would cross workspaces/servers, or link a channel to itself. */
  'LINK_REFUSED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface RagentErrorOptions {
  cause?: unknown;
  /** Extra structured facts for the log (never secrets). */
  details?: Record<string, unknown>;
}

export class RagentError extends Error {
  override readonly name = 'RagentError';
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  /** @param message shown to users as is: say what happened and what to do. */
  constructor(code: ErrorCode, message: string, options: RagentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }
}

export function isRagentError(error: unknown): error is RagentError {
  return error instanceof RagentError;
}

/** Wraps anything thrown into a RagentError, keeping typed ones as they are. */
export function toRagentError(
  error: unknown,
  fallbackMessage = 'Something went wrong on our side.',
): RagentError {
  if (error instanceof RagentError) return error;
  return new RagentError('INTERNAL', `${fallbackMessage} The details are in the log.`, { cause: error });
}

/** A short description of any thrown value, for logs and one-line reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

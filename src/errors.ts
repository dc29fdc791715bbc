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
  /** An image (PNG, JPEG, TIFF) whose header cannot be read. */
  'IMAGE_CORRUPT',
  /** An image (PNG, JPEG, TIFF) in which OCR found no text. */
  'IMAGE_NO_TEXT',
  /** An image declaring more pixels than RAGENT_OCR_MAX_MEGAPIXELS (checked from its header, before decoding). */
  'IMAGE_TOO_LARGE',
  /** An image to ingest while OCR is switched off (RAGENT_OCR=off). */
  'OCR_OFF',
  /** A language of RAGENT_OCR_LANGS whose @tesseract.js-data package is not installed. */
  'OCR_LANGUAGE_MISSING',
  /** Recognising one page took longer than RAGENT_OCR_PAGE_SECONDS. */
  'OCR_PAGE_TIMEOUT',
  /** The OCR engine failed on a page (the image could not be decoded, or the engine stopped). */
  'OCR_FAILED',
  'INGEST_TOO_MANY_PAGES',
  'INGEST_TEXT_TOO_LARGE',
  'INGEST_CONTENT_TOO_LARGE',
  'INGEST_TOO_MANY_CHUNKS',
  'INGEST_TIMEOUT',
  'INGEST_OUT_OF_MEMORY',
  'INGEST_CANCELLED',
  'DOCUMENT_NOT_FOUND',
  /** A move into a set that already has a document of that name (or those bytes): nothing is replaced. */
  'DOCUMENT_NAME_TAKEN',
  /** A document replaced or removed while it was being re-indexed: the newer state is kept. */
  'DOCUMENT_CHANGED',
  /** A move that would leave its workspace/server, or stay where it is. */
  'MOVE_REFUSED',
  'SCOPE_EMPTY',
  'PERMISSION_DENIED',
  'DOWNLOAD_FAILED',
  'ANSWER_TIMEOUT',
  'SHUTTING_DOWN',
  'INVALID_INPUT',
  /** A channel link that would cross workspaces/servers, or link a channel to itself. */
  'LINK_REFUSED',
  /** The server's disk is full (SQLITE_FULL, ENOSPC): nothing can be saved until the operator frees space. */
  'DISK_FULL',
  /** The data directory cannot be written (read-only file system or database, permissions). */
  'DATA_NOT_WRITABLE',
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

const diskFullCodes = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const notWritableCodes = new Set(['EROFS', 'EACCES', 'EPERM', 'SQLITE_CANTOPEN', 'SQLITE_PERM']);

/**
 * A storage failure a person can act on (through the operator): the disk is full, or the data
 * directory cannot be written. Read from the error and its causes (`code`, as SQLite and Node set it).
 */
export function storageFailure(error: unknown): RagentError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (diskFullCodes.has(code)) {
        return new RagentError(
          'DISK_FULL',
          "The server's disk is full, so I could not save this. Tell the operator (ragent's data directory needs free space), then try again.",
          { cause: error, details: { storageCode: code } },
        );
      }
      if (notWritableCodes.has(code) || code.startsWith('SQLITE_READONLY')) {
        return new RagentError(
          'DATA_NOT_WRITABLE',
          "The server's data directory is read-only or not writable, so I could not save this. Tell the operator (ragent must be able to write its data directory), then try again.",
          { cause: error, details: { storageCode: code } },
        );
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Wraps anything thrown into a RagentError, keeping typed ones as they are; a full disk or an
 * unwritable data directory (also under an INTERNAL error) is said as such, for the operator to fix.
 */
export function toRagentError(
  error: unknown,
  fallbackMessage = 'Something went wrong on our side.',
): RagentError {
  if (error instanceof RagentError && error.code !== 'INTERNAL') return error;
  const storage = storageFailure(error);
  if (storage) return storage;
  if (error instanceof RagentError) return error;
  return new RagentError('INTERNAL', `${fallbackMessage} The details are in the log.`, { cause: error });
}

/** A short description of any thrown value, for logs and one-line reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

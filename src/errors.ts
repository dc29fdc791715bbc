/**
 * Typed errors. Every failure a user can meet is a `RagentError` with a stable `code`,
 * a message fit to show a person (what went wrong and what to do), and the underlying `cause`
 * for the log. Adapters render these; the core only throws them. The codes are grouped by area; the
 * sentences are in one catalogue, src/error-messages-en.ts, and a throw site passes it the facts.
 */
import { errorMessageOpenings, errorMessages } from './error-messages-en.ts';

export const errorCodes = [
  // ── Configuration and the network: settings that do not parse, outside services that cannot be reached.
  'CONFIG_INVALID',
  /** A platform or other outside service could not be reached over the network. */
  'NETWORK_UNREACHABLE',

  // ── Model servers: Ollama or an OpenAI-compatible server, for chat and embeddings.
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

  // ── Index and search: the chunk index, embedded SQLite or Qdrant.
  'QDRANT_UNREACHABLE',
  'QDRANT_FAILED',
  'INDEX_MODEL_MISMATCH',
  /** The index was written by another version of ragent's storage format. */
  'INDEX_SCHEMA_MISMATCH',
  'INDEX_NOT_WRITABLE',

  // ── Database and replicas: PostgreSQL when DATABASE_URL is set.
  'DATABASE_UNREACHABLE',
  'DATABASE_AUTH_FAILED',
  'DATABASE_MISSING',
  'DATABASE_SCHEMA_OLD',
  'DATABASE_LOST',
  'DATABASE_FAILED',

  // ── Files and formats: a file that is empty, too large, of an unread type, or damaged.
  'FILE_EMPTY',
  'FILE_TOO_LARGE',
  'FILE_UNSUPPORTED',
  'PDF_CORRUPT',
  'PDF_ENCRYPTED',
  'PDF_NO_TEXT',
  /** A password-protected Word, PowerPoint, Excel or OpenDocument file. */
  'OFFICE_ENCRYPTED',
  /** An Office file (DOCX, PPTX, XLSX, ODT, ODP, ODS) whose zip or XML cannot be read. */
  'OFFICE_CORRUPT',
  /** XML with a document type declaration (entity expansion, external entities): never read. */
  'XML_DOCTYPE_REFUSED',
  /** An image (PNG, JPEG, TIFF) whose header cannot be read. */
  'IMAGE_CORRUPT',

  // ── OCR: reading the text of images and scans.
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

  // ── Ingest limits: the bounds every reader of outside input keeps.
  'INGEST_TOO_MANY_PAGES',
  'INGEST_TEXT_TOO_LARGE',
  'INGEST_CONTENT_TOO_LARGE',
  'INGEST_TOO_MANY_CHUNKS',
  'INGEST_TIMEOUT',
  'INGEST_OUT_OF_MEMORY',
  'INGEST_CANCELLED',
  /** An Office file whose entries would unpack past RAGENT_MAX_UNZIPPED_MB. */
  'ZIP_TOO_LARGE',
  /** An Office file with more entries than RAGENT_MAX_ZIP_ENTRIES. */
  'ZIP_TOO_MANY_ENTRIES',
  /** A sheet of a spreadsheet with more rows than RAGENT_MAX_ROWS. */
  'SHEET_TOO_MANY_ROWS',

  // ── Documents and sets: documents, verified answers, scopes, channel links and who may change them.
  'DOCUMENT_NOT_FOUND',
  /** `ragent answers remove` with an id no verified answer has. */
  'VERIFIED_ANSWER_NOT_FOUND',
  /** A move into a set that already has a document of that name (or those bytes): nothing is replaced. */
  'DOCUMENT_NAME_TAKEN',
  /** A document replaced or removed while it was being re-indexed: the newer state is kept. */
  'DOCUMENT_CHANGED',
  /** A move that would leave its workspace/server, or stay where it is. */
  'MOVE_REFUSED',
  'SCOPE_EMPTY',
  /** A scope outside the ones a front door (the MCP server) was started with. */
  'SCOPE_NOT_ALLOWED',
  'PERMISSION_DENIED',
  /** A channel link that would cross workspaces/servers, or link a channel to itself. */
  'LINK_REFUSED',

  // ── Web fetching and downloads: files from a chat, pages and files from the web.
  'DOWNLOAD_FAILED',
  /** A URL that is not an http(s) address (or cannot be read as one). */
  'FETCH_INVALID_URL',
  /** A chat asked for a private, loopback or link-local address (RAGENT_FETCH_ALLOW lists exceptions). */
  'FETCH_ADDRESS_REFUSED',
  /** More than 5 redirects. */
  'FETCH_TOO_MANY_REDIRECTS',
  /** A page or file larger than RAGENT_FETCH_MAX_MB. */
  'FETCH_TOO_LARGE',
  /** No whole answer within RAGENT_FETCH_TIMEOUT_S. */
  'FETCH_TIMEOUT',
  /** A page of a type ragent cannot read (an image, a video, an unknown binary). */
  'FETCH_UNSUPPORTED_TYPE',
  /** The server answered with an error status, or could not be reached. */
  'FETCH_FAILED',
  /** robots.txt of the site does not let ragent read that page. */
  'FETCH_ROBOTS_DISALLOWED',

  // ── Answering: a turn that cannot be answered.
  'ANSWER_TIMEOUT',
  'SHUTTING_DOWN',

  // ── Input: commands, options and files of questions that cannot be used as given.
  'INVALID_INPUT',

  // ── Storage: the data directory's disk.
  /** The server's disk is full (SQLITE_FULL, ENOSPC): nothing can be saved until the operator frees space. */
  'DISK_FULL',
  /** The data directory cannot be written (read-only file system or database, permissions). */
  'DATA_NOT_WRITABLE',

  // ── Internal: a bug or an unexpected failure: the details are in the log.
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

/**
 * SQLite says "disk I/O error" (SQLITE_IOERR and its extended codes: the WAL's shared memory cannot
 * grow, a write or sync fails) when the disk fills up under it, rather than SQLITE_FULL.
 */
const diskFullCodes = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
const isDiskFullCode = (code: string) => diskFullCodes.has(code) || /^SQLITE_IOERR(_|$)/.test(code);
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
      if (isDiskFullCode(code)) {
        return new RagentError('DISK_FULL', errorMessages.DISK_FULL.saving(), {
          cause: error,
          details: { storageCode: code },
        });
      }
      if (notWritableCodes.has(code) || code.startsWith('SQLITE_READONLY')) {
        return new RagentError('DATA_NOT_WRITABLE', errorMessages.DATA_NOT_WRITABLE(), {
          cause: error,
          details: { storageCode: code },
        });
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A full disk met while starting (opening the databases): DISK_FULL naming the data directory, for
 * the operator who runs `ragent start`; undefined when `error` is no full disk.
 */
export function diskFullAtStart(error: unknown, dataDir: string): RagentError | undefined {
  const storage = storageFailure(error);
  if (storage?.code !== 'DISK_FULL') return undefined;
  return new RagentError('DISK_FULL', errorMessages.DISK_FULL.starting({ dataDir }), {
    cause: error,
    ...(storage.details ? { details: storage.details } : {}),
  });
}

/**
 * Wraps anything thrown into a RagentError, keeping typed ones as they are; a full disk or an
 * unwritable data directory (also under an INTERNAL error) is said as such, for the operator to fix.
 */
export function toRagentError(
  error: unknown,
  fallbackMessage = errorMessageOpenings.somethingWentWrong(),
): RagentError {
  if (error instanceof RagentError && error.code !== 'INTERNAL') return error;
  const storage = storageFailure(error);
  if (storage) return storage;
  if (error instanceof RagentError) return error;
  return new RagentError('INTERNAL', errorMessages.INTERNAL.unexpected({ whatFailed: fallbackMessage }), {
    cause: error,
  });
}

/** A short description of any thrown value, for logs and one-line reports. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

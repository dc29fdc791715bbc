/**
 * The bounds one file's ingest runs within, and the refusal for each one crossed. Any file within
 * RAGENT_MAX_FILE_MB is either ingested or refused with one of these codes, in bounded time and memory:
 * a small PDF can inflate to hundreds of MB of page content (a compressed-stream bomb).
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

export interface IngestLimits {
  /** RAGENT_MAX_PAGES. */
  maxPages: number;
  /** RAGENT_MAX_TEXT_MB, in characters (a character of extracted text counted as a byte). */
  maxTextChars: number;
  /** RAGENT_MAX_CHUNKS: child chunks of one document. */
  maxChunks: number;
  /** RAGENT_INGEST_TIMEOUT_S: reading one file (PDF → text). */
  timeoutMs: number;
  /** RAGENT_INGEST_MEMORY_MB: heap of one PDF reader thread; a file needing more kills that thread only. */
  workerMemoryMb: number;
  /** RAGENT_MAX_ROWS: rows of one sheet of a spreadsheet (XLSX, ODS, CSV, TSV). */
  maxRows: number;
  /** RAGENT_MAX_UNZIPPED_MB, in bytes: what the entries of an Office file (a zip) may inflate to together. */
  maxUnzippedBytes: number;
  /** RAGENT_MAX_ZIP_ENTRIES: entries of an Office file (a zip). */
  maxZipEntries: number;
}

/** The defaults of the variables above (see src/config.ts). */
export const defaultIngestLimits: IngestLimits = Object.freeze({
  maxPages: 10_000,
  maxTextChars: 25 * 1024 * 1024,
  maxChunks: 100_000,
  timeoutMs: 300_000,
  workerMemoryMb: 1_024,
  maxRows: 200_000,
  maxUnzippedBytes: 256 * 1024 * 1024,
  maxZipEntries: 10_000,
});

const count = (value: number) => value.toLocaleString('en-US');
const megabytes = (chars: number) => `${Math.round((chars / 1024 / 1024) * 10) / 10} MB`;

export function tooManyPages(name: string, pages: number, limits: IngestLimits): RagentError {
  return new RagentError(
    'INGEST_TOO_MANY_PAGES',
    errorMessages.INGEST_TOO_MANY_PAGES({ name, pages: count(pages), limit: count(limits.maxPages) }),
    { details: { pages, limit: limits.maxPages } },
  );
}

export function tooMuchText(name: string, limits: IngestLimits): RagentError {
  return new RagentError(
    'INGEST_TEXT_TOO_LARGE',
    errorMessages.INGEST_TEXT_TOO_LARGE({ name, limit: megabytes(limits.maxTextChars) }),
    { details: { limitChars: limits.maxTextChars } },
  );
}

/** A compressed stream of the PDF inflates past RAGENT_MAX_TEXT_MB (checked before it is parsed). */
export function contentTooLarge(name: string, limits: IngestLimits): RagentError {
  return new RagentError(
    'INGEST_CONTENT_TOO_LARGE',
    errorMessages.INGEST_CONTENT_TOO_LARGE({ name, limit: megabytes(limits.maxTextChars) }),
    { details: { limitBytes: limits.maxTextChars } },
  );
}

export function tooManyChunks(name: string, chunks: number, limits: IngestLimits): RagentError {
  return new RagentError(
    'INGEST_TOO_MANY_CHUNKS',
    errorMessages.INGEST_TOO_MANY_CHUNKS({ name, chunks: count(chunks), limit: count(limits.maxChunks) }),
    { details: { chunks, limit: limits.maxChunks } },
  );
}

export function readingTimedOut(name: string, limits: IngestLimits): RagentError {
  return new RagentError(
    'INGEST_TIMEOUT',
    errorMessages.INGEST_TIMEOUT({ name, seconds: Math.round(limits.timeoutMs / 1000) }),
    { details: { timeoutMs: limits.timeoutMs } },
  );
}

export function readerOutOfMemory(name: string, limits: IngestLimits, cause?: unknown): RagentError {
  return new RagentError(
    'INGEST_OUT_OF_MEMORY',
    errorMessages.INGEST_OUT_OF_MEMORY({ name, limitMb: count(limits.workerMemoryMb) }),
    { cause, details: { workerMemoryMb: limits.workerMemoryMb } },
  );
}

/** The error an aborted ingest ends with: the abort's own reason when it is a RagentError. */
export function ingestCancelled(name: string, signal: AbortSignal): RagentError {
  if (signal.reason instanceof RagentError) return signal.reason;
  return new RagentError('INGEST_CANCELLED', errorMessages.INGEST_CANCELLED({ name }), {
    cause: signal.reason,
  });
}

export function tooManyRows(name: string, sheet: string, rows: number, limits: IngestLimits): RagentError {
  return new RagentError(
    'SHEET_TOO_MANY_ROWS',
    errorMessages.SHEET_TOO_MANY_ROWS({ name, limit: count(limits.maxRows), sheet }),
    { details: { sheet, rows, limit: limits.maxRows } },
  );
}

/** An Office file whose entries would inflate past RAGENT_MAX_UNZIPPED_MB (told by its zip directory). */
export function unzippedTooLarge(name: string, bytes: number, limits: IngestLimits): RagentError {
  return new RagentError(
    'ZIP_TOO_LARGE',
    errorMessages.ZIP_TOO_LARGE({ name, size: megabytes(bytes), limit: megabytes(limits.maxUnzippedBytes) }),
    { details: { bytes, limit: limits.maxUnzippedBytes } },
  );
}

export function tooManyZipEntries(name: string, entries: number, limits: IngestLimits): RagentError {
  return new RagentError(
    'ZIP_TOO_MANY_ENTRIES',
    errorMessages.ZIP_TOO_MANY_ENTRIES({ name, entries: count(entries), limit: count(limits.maxZipEntries) }),
    { details: { entries, limit: limits.maxZipEntries } },
  );
}

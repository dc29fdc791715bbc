/**
 * Typed errors. Every failure a user can meet is a `RagentError` with a stable `code`,
 * a message fit to show a person (what went wrong and what to do), and the underlying `cause`
 * for the log. Adapters render these; the core only throws them. The codes are grouped by area; the
 * sentences are in one catalogue, src/error-messages-en.ts, and a throw site passes it the facts.
 */
import type { ErrorCode } from './error-codes.ts';
import { errorMessageOpenings, errorMessages } from './error-messages-en.ts';

export { type ErrorCode, errorCodes } from './error-codes.ts';

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

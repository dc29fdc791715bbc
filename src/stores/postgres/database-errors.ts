/**
 * PostgreSQL failures as RagentErrors. Messages name DATABASE_URL and the server by host, port and
 * database only: the URL holds a password and never appears in a message.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { describeError, RagentError } from '../../errors.ts';

/** `host:port/database` of a PostgreSQL URL, safe to show (no user, no password). */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
    return `${parsed.hostname}:${parsed.port || '5432'}/${database}`;
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ECONNRESET',
]);
/** Server codes: https://www.postgresql.org/docs/current/errcodes-appendix.html */
const authCodes = new Set(['28P01', '28000']);
const missingDatabaseCode = '3D000';
const lostCodes = new Set(['57P01', '57P02', '57P03', '08006', '08003', '08001']);

/** The SQLSTATE or Node code of a pg failure (or of its cause), if any. */
export function databaseErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Whether the connection to PostgreSQL itself failed (as opposed to a statement). */
export function isConnectionFailure(error: unknown): boolean {
  const code = databaseErrorCode(error);
  if (code && (unreachableCodes.has(code) || lostCodes.has(code))) return true;
  return /Connection terminated|connection.*(closed|ended)|Client has encountered a connection error/i.test(
    describeError(error),
  );
}

/** A failure while connecting to or talking with PostgreSQL, with what to do about it. */
export function toDatabaseError(error: unknown, url: string, what = 'reach the database'): RagentError {
  if (error instanceof RagentError) return error;
  const address = databaseAddress(url);
  const code = databaseErrorCode(error);
  if (code && authCodes.has(code)) {
    return new RagentError('DATABASE_AUTH_FAILED', errorMessages.DATABASE_AUTH_FAILED({ address }), {
      cause: error,
      details: { address, code },
    });
  }
  if (code === missingDatabaseCode) {
    return new RagentError('DATABASE_MISSING', errorMessages.DATABASE_MISSING({ address }), {
      cause: error,
      details: { address, code },
    });
  }
  if (code && unreachableCodes.has(code)) {
    return new RagentError('DATABASE_UNREACHABLE', errorMessages.DATABASE_UNREACHABLE({ address }), {
      cause: error,
      details: { address, code },
    });
  }
  if (isConnectionFailure(error)) {
    return new RagentError('DATABASE_LOST', errorMessages.DATABASE_LOST({ address }), {
      cause: error,
      details: { address, code },
    });
  }
  return new RagentError(
    'DATABASE_FAILED',
    errorMessages.DATABASE_FAILED({ address, what, reason: firstLine(describeError(error)) }),
    { cause: error, details: { address, code } },
  );
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

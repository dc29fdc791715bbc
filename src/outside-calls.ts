/**
 * The one policy for calls to outside services (model servers, Qdrant, doctor probes, platforms):
 * one classifier that says what kind of failure an error is and whether it is worth another try, one
 * retry loop with capped, jittered exponential backoff that honours Retry-After, and the structured
 * details (service, HTTP status, URL without secrets) every error from an HTTP service carries — as
 * discord.js's REST layer does with `DiscordAPIError`.
 */
import { type ErrorCode, RagentError } from './errors.ts';

export type FailureKind =
  /** Nothing answered: connection refused, unknown host, no route. */
  | 'unreachable'
  /** The connection dropped mid-call (reset, hang-up, stream cut). */
  | 'disconnected'
  /** No answer in time (our timeout, a connect timeout or HTTP 408). */
  | 'timeout'
  /** HTTP 429. */
  | 'rate-limited'
  /** HTTP 5xx (other than 501). */
  | 'server-error'
  /** HTTP 401 or 403. */
  | 'unauthorized'
  /** HTTP 404. */
  | 'not-found'
  /** Any other HTTP 4xx (and 501): the request itself was refused. */
  | 'rejected'
  /** A reply that could not be read (cut or invalid JSON). */
  | 'malformed'
  /** The caller gave up (its abort signal). */
  | 'aborted'
  | 'unknown';

export interface CallFailure {
  kind: FailureKind;
  /** Worth another attempt under the retry policy. */
  retryable: boolean;
  status?: number;
  /** The system error code, e.g. ECONNREFUSED. */
  networkCode?: string;
  /** What the server asked us to wait (Retry-After / retry-after-ms), in milliseconds. */
  retryAfterMs?: number;
  /** One line for logs and doctor: what happened, without addresses. */
  reason: string;
}

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const disconnectedCodes = new Set([
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNABORTED',
]);
const timeoutCodes = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const retryableKinds = new Set<FailureKind>([
  'disconnected',
  'timeout',
  'rate-limited',
  'server-error',
  'malformed',
]);

/** The error and its causes, outermost first (at most 6). */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 6) {
    chain.push(current);
    // `original`: the Slack Web API client wraps the network error there instead of in `cause`.
    const next = current as { cause?: unknown; original?: unknown };
    current = typeof current === 'object' ? (next.cause ?? next.original) : undefined;
  }
  return chain;
}

/** The HTTP status an error reports, whichever client threw it. */
export function statusOf(error: unknown): number | undefined {
  for (const entry of causeChain(error)) {
    if (typeof entry !== 'object' || entry === null) continue;
    const value = entry as {
      status_code?: unknown;
      status?: unknown;
      statusCode?: unknown;
      response?: unknown;
    };
    for (const candidate of [
      value.status_code,
      value.status,
      value.statusCode,
      (value.response as { status?: unknown } | undefined)?.status,
    ]) {
      if (typeof candidate === 'number' && candidate >= 100 && candidate < 600) return candidate;
    }
  }
  return undefined;
}

function networkCodeOf(error: unknown): string | undefined {
  for (const entry of causeChain(error)) {
    const code = (entry as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function namesOf(error: unknown): string[] {
  return causeChain(error).map((entry) => {
    if (entry instanceof Error) return `${entry.name}: ${entry.message}`;
    if (typeof entry === 'object' && entry !== null && 'name' in entry) return String(entry.name);
    return String(entry);
  });
}

/** Reads Retry-After (seconds or an HTTP date) or retry-after-ms from an error's response headers. */
export function retryAfterOf(error: unknown, now = Date.now()): number | undefined {
  for (const entry of causeChain(error)) {
    const headers =
      (entry as { headers?: unknown } | null)?.headers ??
      (entry as { response?: { headers?: unknown } } | null)?.response?.headers;
    const read = (name: string): string | undefined => {
      if (!headers || typeof headers !== 'object') return undefined;
      if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
      const value = (headers as Record<string, unknown>)[name];
      return typeof value === 'string' ? value : undefined;
    };
    const milliseconds = Number(read('retry-after-ms'));
    if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
    const header = read('retry-after');
    if (header === undefined) continue;
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  return undefined;
}

/** Says what kind of failure anything thrown by an HTTP client is, and whether to try again. */
export function classifyFailure(error: unknown): CallFailure {
  const make = (kind: FailureKind, reason: string, extra: Partial<CallFailure> = {}): CallFailure => ({
    kind,
    retryable: retryableKinds.has(kind),
    reason,
    ...extra,
  });
  const status = statusOf(error);
  const networkCode = networkCodeOf(error);
  const names = namesOf(error);
  const text = names.join(' | ');
  const withCode = networkCode ? { networkCode } : {};

  if (status !== undefined) {
    const withStatus = { status, ...withCode };
    if (status === 408) return make('timeout', 'HTTP 408: the server timed out the request', withStatus);
    if (status === 429) {
      const retryAfterMs = retryAfterOf(error);
      return make('rate-limited', 'HTTP 429: too many requests', {
        ...withStatus,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (status === 401 || status === 403)
      return make('unauthorized', `HTTP ${status}: not allowed`, withStatus);
    if (status === 404) return make('not-found', 'HTTP 404: not found', withStatus);
    if (status >= 500 && status !== 501) {
      const retryAfterMs = retryAfterOf(error);
      return make('server-error', `HTTP ${status}: the server failed`, {
        ...withStatus,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (status >= 400) return make('rejected', `HTTP ${status}: the request was refused`, withStatus);
  }
  if (
    names.some((name) => /^(TimeoutError|APIConnectionTimeoutError)\b/.test(name)) ||
    (networkCode && timeoutCodes.has(networkCode))
  )
    return make('timeout', 'no answer in time', withCode);
  if (names.some((name) => /^(AbortError|APIUserAbortError)\b/.test(name)))
    return make('aborted', 'the call was cancelled', withCode);
  if (networkCode && unreachableCodes.has(networkCode)) {
    const reason =
      networkCode === 'ECONNREFUSED'
        ? 'connection refused: nothing is listening there'
        : networkCode === 'ENOTFOUND' || networkCode === 'EAI_AGAIN'
          ? 'host name not found'
          : 'no route to the host';
    return make('unreachable', reason, withCode);
  }
  if (
    names.some((name) => name.startsWith('SyntaxError')) ||
    /unexpected end of JSON|not valid JSON/i.test(text)
  )
    return make('malformed', 'the reply could not be read', withCode);
  if (
    (networkCode && disconnectedCodes.has(networkCode)) ||
    /socket hang up|other side closed|\bterminated\b|ECONNRESET/i.test(text)
  )
    return make('disconnected', 'the connection was dropped', withCode);
  if (/fetch failed|APIConnectionError|Connection error/i.test(text))
    return make('unreachable', 'could not connect', withCode);
  return make('unknown', firstLine(names[0] ?? 'unknown error'), withCode);
}

/** The failure, when `error` means the network did not carry the call (nothing answered, dropped, no answer in time). */
export function networkFailureOf(error: unknown): CallFailure | undefined {
  const failure = classifyFailure(error);
  return failure.kind === 'unreachable' || failure.kind === 'disconnected' || failure.kind === 'timeout'
    ? failure
    : undefined;
}

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  attempts: number;
  /** First backoff; doubles each retry, with ±25 % jitter. */
  baseDelayMs: number;
  /** Cap of one backoff (default 8 s). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails instead (default 30 s). */
  maxRetryAfterMs?: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 3, baseDelayMs: 500 };

export interface RetryOptions {
  policy?: RetryPolicy;
  signal?: AbortSignal;
  /** Classifier (default `classifyFailure`); a caller may mark more failures final. */
  classify?: (error: unknown) => CallFailure;
  /** Called after each failed attempt; `delayMs` is undefined when no retry follows. */
  onFailure?: (event: {
    error: unknown;
    failure: CallFailure;
    attempt: number;
    delayMs: number | undefined;
  }) => void;
}

/** How long to wait before retry number `retry` (0-based). */
export function retryDelay(policy: RetryPolicy, retry: number, failure: CallFailure): number | undefined {
  const maxDelayMs = policy.maxDelayMs ?? 8_000;
  const base = Math.min(maxDelayMs, policy.baseDelayMs * 2 ** retry);
  const backoff = Math.round(base * (0.75 + Math.random() * 0.5));
  if (failure.retryAfterMs === undefined) return backoff;
  if (failure.retryAfterMs > (policy.maxRetryAfterMs ?? 30_000)) return undefined;
  return Math.max(backoff, Math.ceil(failure.retryAfterMs));
}

/**
 * Runs `work` until it succeeds, fails for good, or the attempts run out; rethrows the last error as
 * thrown (callers turn it into their own RagentError). An abort of `signal` ends it at once.
 */
export async function withRetry<Result>(
  work: (attempt: number) => Promise<Result>,
  options: RetryOptions = {},
): Promise<Result> {
  const policy = options.policy ?? defaultRetryPolicy;
  const classify = options.classify ?? classifyFailure;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await work(attempt);
    } catch (error) {
      options.signal?.throwIfAborted();
      const failure = classify(error);
      const delayMs =
        failure.retryable && attempt < policy.attempts ? retryDelay(policy, attempt - 1, failure) : undefined;
      options.onFailure?.({ error, failure, attempt, delayMs });
      if (delayMs === undefined) throw error;
      await sleep(delayMs, options.signal);
    }
  }
}

/** An attempt that ran out of its own time: classified as `timeout`, however the client reported the abort. */
export class AttemptTimeout extends Error {
  override readonly name = 'TimeoutError';
  constructor(timeoutMs: number, cause: unknown) {
    super(`no answer within ${Math.round(timeoutMs / 100) / 10} s`, { cause });
  }
}

/**
 * Runs one attempt with its own timeout (joined to the caller's signal). When the timeout, not the
 * caller, ended it, the error becomes an AttemptTimeout.
 */
export async function withAttemptTimeout<Result>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<Result>,
): Promise<Result> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await work(signal ? AbortSignal.any([signal, timeout]) : timeout);
  } catch (error) {
    if (timeout.aborted && !signal?.aborted) throw new AttemptTimeout(timeoutMs, error);
    throw error;
  }
}

/** Waits, or rejects with the signal's reason when it aborts first. */
export function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A URL fit for logs: no credentials, no query string (tokens travel there), no trailing slash. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return '(invalid URL)';
  }
}

export interface ServiceFailure {
  /** Which outside service, e.g. "ollama", "openai", "qdrant", "slack". */
  service: string;
  /** Where the call went (credentials and query are removed here). */
  url?: string;
  failure: CallFailure;
  cause: unknown;
  /** More facts for the log (never secrets). */
  extra?: Record<string, unknown>;
}

/**
 * A RagentError from an HTTP service: the user message says what happened and what to do; the
 * details carry the service, status, failure kind and URL for the log.
 */
export function serviceError(code: ErrorCode, userMessage: string, failure: ServiceFailure): RagentError {
  const { service, url, cause, extra } = failure;
  const { kind, status, networkCode, reason } = failure.failure;
  return new RagentError(code, userMessage, {
    cause,
    details: {
      service,
      failure: kind,
      reason,
      ...(status === undefined ? {} : { status }),
      ...(networkCode === undefined ? {} : { networkCode }),
      ...(url === undefined ? {} : { url: redactUrl(url) }),
      ...extra,
    },
  });
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

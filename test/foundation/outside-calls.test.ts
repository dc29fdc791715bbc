import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  classifyFailure,
  redactUrl,
  retryAfterOf,
  serviceError,
  withRetry,
} from '../../src/outside-calls.ts';

/** What `fetch` throws when nothing listens: a TypeError whose cause carries the system code. */
function networkError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

/** An HTTP error as the OpenAI and Qdrant clients throw them: `status` and `headers`. */
function httpError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`${status} status`), { status, headers: new Headers(headers) });
}

describe('classifyFailure: one classifier for every outside call', () => {
  it('tells network failures apart and retries only the transient ones', () => {
    expect(classifyFailure(networkError('ECONNREFUSED'))).toMatchObject({
      kind: 'unreachable',
      retryable: false,
      networkCode: 'ECONNREFUSED',
    });
    expect(classifyFailure(networkError('ENOTFOUND'))).toMatchObject({
      kind: 'unreachable',
      retryable: false,
    });
    expect(classifyFailure(networkError('ECONNRESET'))).toMatchObject({
      kind: 'disconnected',
      retryable: true,
    });
    expect(classifyFailure(new Error('other side closed'))).toMatchObject({ kind: 'disconnected' });
    expect(classifyFailure(new DOMException('timed out', 'TimeoutError'))).toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    expect(classifyFailure(new DOMException('stop', 'AbortError'))).toMatchObject({
      kind: 'aborted',
      retryable: false,
    });
    expect(classifyFailure(new SyntaxError('Unterminated string in JSON at position 45'))).toMatchObject({
      kind: 'malformed',
      retryable: true,
    });
  });

  it('reads the HTTP status from any client: 429, 408 and 5xx retry; other 4xx do not', () => {
    expect(classifyFailure(httpError(429))).toMatchObject({
      kind: 'rate-limited',
      retryable: true,
      status: 429,
    });
    expect(classifyFailure(httpError(408))).toMatchObject({ kind: 'timeout', retryable: true });
    expect(classifyFailure(httpError(503))).toMatchObject({ kind: 'server-error', retryable: true });
    expect(classifyFailure(Object.assign(new Error('x'), { status_code: 500 }))).toMatchObject({
      kind: 'server-error',
      status: 500,
    });
    expect(classifyFailure(httpError(501))).toMatchObject({ kind: 'rejected', retryable: false });
    expect(classifyFailure(httpError(400))).toMatchObject({ kind: 'rejected', retryable: false });
    expect(classifyFailure(httpError(401))).toMatchObject({ kind: 'unauthorized', retryable: false });
    expect(classifyFailure(httpError(404))).toMatchObject({ kind: 'not-found', retryable: false });
  });

  it('reads Retry-After as seconds, as an HTTP date, and retry-after-ms', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    expect(retryAfterOf(httpError(429, { 'retry-after': '3' }), now)).toBe(3_000);
    expect(retryAfterOf(httpError(429, { 'retry-after': 'Tue, 01 Dec 2026 00:00:05 GMT' }), now)).toBe(5_000);
    expect(retryAfterOf(httpError(429, { 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterOf(httpError(429), now)).toBeUndefined();
    expect(classifyFailure(httpError(429, { 'retry-after': '2' })).retryAfterMs).toBe(2_000);
  });
});

describe('withRetry: one retry policy', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits what Retry-After asks before the next attempt', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const result = withRetry(
      async () => {
        calls++;
        if (calls === 1) throw httpError(429, { 'retry-after': '3' });
        return 'done';
      },
      { policy: { attempts: 3, baseDelayMs: 1 } },
    );
    await vi.advanceTimersByTimeAsync(2_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await expect(result).resolves.toBe('done');
  });

  it('backs off exponentially on 5xx and gives up after the attempts with the last error', async () => {
    vi.useFakeTimers();
    const delays: Array<number | undefined> = [];
    let calls = 0;
    const result = withRetry(
      async () => {
        calls++;
        throw httpError(500);
      },
      {
        policy: { attempts: 3, baseDelayMs: 100 },
        onFailure: ({ delayMs }) => delays.push(delayMs),
      },
    ).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(3);
    expect(await result).toMatchObject({ status: 500 });
    expect(delays).toHaveLength(3);
    expect(delays[0]).toBeGreaterThanOrEqual(75);
    expect(delays[0]).toBeLessThanOrEqual(125);
    expect(delays[1]).toBeGreaterThanOrEqual(150);
    expect(delays[1]).toBeLessThanOrEqual(250);
    expect(delays[2]).toBeUndefined();
  });

  it('does not retry a 4xx, nor a Retry-After longer than the cap', async () => {
    let calls = 0;
    const refused = await withRetry(
      async () => {
        calls++;
        throw httpError(400);
      },
      { policy: { attempts: 3, baseDelayMs: 1 } },
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect(calls).toBe(1);
    const tooLong = await withRetry(
      async () => {
        calls++;
        throw httpError(429, { 'retry-after': '3600' });
      },
      { policy: { attempts: 3, baseDelayMs: 1, maxRetryAfterMs: 30_000 } },
    ).catch((error: unknown) => error);
    expect(tooLong).toMatchObject({ status: 429 });
    expect(calls).toBe(2);
  });

  it('stops waiting when the caller aborts', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    let calls = 0;
    const result = withRetry(
      async () => {
        calls++;
        throw httpError(503);
      },
      { policy: { attempts: 5, baseDelayMs: 10_000 }, signal: controller.signal },
    ).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('deadline'));
    expect(await result).toMatchObject({ message: 'deadline' });
    expect(calls).toBe(1);
  });
});

describe('service errors', () => {
  it('carry service, status and a URL without secrets in details, not in the message', () => {
    const cause = httpError(503);
    const error = serviceError('QDRANT_FAILED', 'Qdrant failed. Try again.', {
      service: 'qdrant',
      url: 'https://user:pw@qdrant.internal:6333/collections?api-key=secret',
      failure: classifyFailure(cause),
      cause,
    });
    expect(error.code).toBe('QDRANT_FAILED');
    expect(error.message).toBe('Qdrant failed. Try again.');
    expect(error.details).toMatchObject({
      service: 'qdrant',
      status: 503,
      failure: 'server-error',
      url: 'https://qdrant.internal:6333/collections',
    });
    expect(redactUrl('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434');
  });
});

/**
 * One HTTP request with a short timeout that never throws: doctor checks turn every outcome into a
 * result. Failures are named by the one classifier of outside calls (outside-calls.ts).
 */
import { classifyFailure } from '../outside-calls.ts';

export type ProbeOutcome =
  | { kind: 'response'; status: number; body: unknown; headers?: Headers }
  | { kind: 'unreachable'; reason: string };

export async function probe(
  url: string,
  options: { timeoutMs: number; headers?: Readonly<Record<string, string>>; body?: unknown },
): Promise<ProbeOutcome> {
  const { target, authorization } = splitCredentials(url);
  try {
    const response = await fetch(target, {
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...authorization,
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { method: 'POST', body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text; the caller decides whether that is a problem.
    }
    return { kind: 'response', status: response.status, body, headers: response.headers };
  } catch (error) {
    return { kind: 'unreachable', reason: describeFetchFailure(error, options.timeoutMs) };
  }
}

/** `fetch` refuses URLs with credentials: send them as Basic auth, and never show them. */
function splitCredentials(url: string): { target: string; authorization: Record<string, string> } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { target: url, authorization: {} };
  }
  if (!parsed.username && !parsed.password) return { target: url, authorization: {} };
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return {
    target: parsed.toString(),
    authorization: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
  };
}

function describeFetchFailure(error: unknown, timeoutMs: number): string {
  const failure = classifyFailure(error);
  if (failure.kind === 'timeout' || failure.kind === 'aborted')
    return `no answer within ${timeoutMs / 1000} s`;
  return failure.reason;
}

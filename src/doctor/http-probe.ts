/** A GET with a short timeout that never throws: doctor checks turn every outcome into a result. */
export type ProbeOutcome =
  | { kind: 'response'; status: number; body: unknown }
  | { kind: 'unreachable'; reason: string };

export async function probe(
  url: string,
  options: { timeoutMs: number; headers?: Record<string, string> },
): Promise<ProbeOutcome> {
  const { target, authorization } = splitCredentials(url);
  try {
    const response = await fetch(target, {
      headers: { accept: 'application/json', ...authorization, ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text; the caller decides whether that is a problem.
    }
    return { kind: 'response', status: response.status, body };
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
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return 'connection refused: nothing is listening there';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    default:
      return cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

import type { Config } from '../config.ts';
import { type CheckResult, displayUrl } from './check-result.ts';
import { probe } from './http-probe.ts';

/** When QDRANT_URL is set, Qdrant answers `GET /collections` with the configured API key. */
export async function checkQdrant(config: Config, timeoutMs: number): Promise<CheckResult> {
  const title = 'Vector store';
  const qdrant = config.qdrant;
  if (!qdrant) {
    return {
      title,
      status: 'pass',
      detail: `embedded (SQLite in ${config.dataDir}); set QDRANT_URL to use a Qdrant server`,
    };
  }
  const shownUrl = displayUrl(qdrant.url);
  const headers: Record<string, string> = qdrant.apiKey ? { 'api-key': qdrant.apiKey } : {};
  const outcome = await probe(`${qdrant.url}/collections`, { timeoutMs, headers });
  if (outcome.kind === 'unreachable') {
    return {
      title,
      status: 'fail',
      detail: `Qdrant is not reachable at ${shownUrl} (${outcome.reason})`,
      fix: [
        'Start Qdrant, e.g.: docker run -p 6333:6333 -v ./qdrant:/qdrant/storage qdrant/qdrant',
        'Or unset QDRANT_URL to use the embedded store in the data directory.',
      ],
    };
  }
  if (outcome.status === 401 || outcome.status === 403) {
    return {
      title,
      status: 'fail',
      detail: `Qdrant at ${shownUrl} refused the request (HTTP ${outcome.status})`,
      fix: [
        qdrant.apiKey
          ? 'QDRANT_API_KEY is not accepted: copy the key again from your Qdrant server or cloud console.'
          : 'This Qdrant needs an API key: set QDRANT_API_KEY.',
      ],
    };
  }
  if (outcome.status !== 200) {
    return {
      title,
      status: 'fail',
      detail: `${shownUrl} answered HTTP ${outcome.status} to GET /collections; is it Qdrant?`,
      fix: ['Set QDRANT_URL to the REST address of your Qdrant server (port 6333), or unset it.'],
    };
  }
  return { title, status: 'pass', detail: `Qdrant at ${shownUrl}, collection "${qdrant.collection}"` };
}

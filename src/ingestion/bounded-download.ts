/**
 * Downloads a file someone shared with the bot in a chat, for every platform the same way: only from
 * the platform's own hosts (`allowedHosts`, checked for the link and for every redirect, followed by
 * hand so the platform's token in `headers` never travels elsewhere), within a time limit, never more
 * than `maxBytes` in memory (the declared size, the served length and the bytes as they stream), and
 * never an empty file. Each failure is a typed error whose sentence names the file and the platform.
 * Which type the file is, is told by the ingest from its bytes (`detectFileKind`), not from what the
 * platform calls it.
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { isAllowedHost } from './allowed-hosts.ts';

export interface DownloadRequest {
  /** The file's link (unset: the platform gave none). */
  url: string | undefined;
  /** Sent to the allowed hosts only (the platform's token, where it needs one). */
  headers?: Readonly<Record<string, string>>;
  /** See `isAllowedHost`. */
  allowedHosts: readonly string[];
  /** The file's name, as its sentences show it. */
  name: string;
  /** The size the platform reports before the download, in bytes. */
  declaredSize?: number | undefined;
  maxBytes: number;
  /** The platform as people call it (`from` in the sentences). */
  from: string;
  /** Default 60 s, for the whole download. */
  timeoutMs?: number;
  /**
   * A text/html answer for a file that is not HTML is the platform's sign-in page, not the file (a
   * platform whose file servers answer so when the token lacks a permission).
   */
  htmlIsSignInPage?: boolean;
}

const maxRedirects = 3;
const defaultTimeoutMs = 60_000;

export async function boundedDownload(request: DownloadRequest): Promise<Uint8Array> {
  const { name, from, maxBytes } = request;
  const facts = { name, from };
  const failed = (message: string, details: Record<string, unknown> = {}, cause?: unknown) =>
    new RagentError('DOWNLOAD_FAILED', message, { details: { file: name, ...details }, cause });
  if (request.declaredSize !== undefined && request.declaredSize > maxBytes)
    throw tooLarge(name, request.declaredSize, maxBytes);
  if (!request.url) throw failed(errorMessages.DOWNLOAD_FAILED.noLink(facts));
  const signal = AbortSignal.timeout(request.timeoutMs ?? defaultTimeoutMs);
  let url = new URL(request.url);
  for (let hop = 0; hop <= maxRedirects; hop += 1) {
    if (!isAllowedHost(url, request.allowedHosts)) {
      const sentence =
        hop === 0 ? errorMessages.DOWNLOAD_FAILED.hostRefused : errorMessages.DOWNLOAD_FAILED.redirectRefused;
      throw failed(sentence(facts), { host: url.host });
    }
    const response = await fetch(url, { headers: request.headers, redirect: 'manual', signal }).catch(
      (error: unknown) => {
        throw failed(errorMessages.DOWNLOAD_FAILED.unreachable(facts), {}, error);
      },
    );
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location) throw failed(errorMessages.DOWNLOAD_FAILED.redirectWithoutTarget(facts));
      url = new URL(location, url);
      continue;
    }
    const refusal = refused(response, request, failed);
    if (refusal) {
      await response.body?.cancel();
      throw refusal;
    }
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      // Leaving the loop early cancels the download: never more than `maxBytes` in memory.
      for await (const chunk of response.body ?? []) {
        total += chunk.byteLength;
        if (total > maxBytes) throw tooLarge(name, total, maxBytes);
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof RagentError
        ? error
        : failed(errorMessages.DOWNLOAD_FAILED.brokenOff(facts), {}, error);
    }
    if (total === 0) throw new RagentError('FILE_EMPTY', errorMessages.FILE_EMPTY.noBytes({ name }));
    return Buffer.concat(chunks, total);
  }
  throw failed(errorMessages.DOWNLOAD_FAILED.tooManyRedirects(facts));
}

/** Why a response is not the file: its status, a sign-in page, or the length it announces. */
function refused(
  response: Response,
  { name, from, maxBytes, htmlIsSignInPage }: DownloadRequest,
  failed: (message: string, details: Record<string, unknown>) => RagentError,
): RagentError | undefined {
  const { status, headers } = response;
  if (status !== 200) return failed(errorMessages.DOWNLOAD_FAILED.status({ name, from, status }), { status });
  const contentType = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (htmlIsSignInPage && contentType === 'text/html' && !/\.html?$/i.test(name))
    return failed(errorMessages.DOWNLOAD_FAILED.signInPage({ name, from }), { contentType });
  const served = Number(headers.get('content-length') ?? Number.NaN);
  return served > maxBytes ? tooLarge(name, served, maxBytes) : undefined;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

function tooLarge(name: string, bytes: number, maxBytes: number): RagentError {
  return new RagentError(
    'FILE_TOO_LARGE',
    errorMessages.FILE_TOO_LARGE({ name, size: megabytes(bytes), limit: megabytes(maxBytes) }),
    { details: { file: name, bytes, maxBytes } },
  );
}

/**
 * Fetching one URL for ingestion, bounded: one deadline for the whole fetch (RAGENT_FETCH_TIMEOUT_S,
 * redirects and retries included), a size cap counted on the bytes as they arrive (RAGENT_FETCH_MAX_MB,
 * after decompression), at most 5 redirects, only http and https, and a content-type check (images,
 * video, scripts and other types ragent cannot read are refused before their body is read).
 *
 * A fetch asked for from a chat (`origin: 'chat'`) may not reach private, loopback or link-local
 * addresses (address-guard.ts): the host's addresses are checked after DNS, in the `lookup` the
 * connection itself uses — so the connection goes to exactly the address that was checked (no second
 * resolution a rebinding DNS server could answer differently) — and again for every redirect. The CLI
 * is run by the operator and fetches any address.
 *
 * Transient failures (a dropped connection, HTTP 5xx or 429) are retried under the one outside-call
 * policy (src/outside-calls.ts); every refusal is a RagentError naming its limit and variable.
 */
import type { LookupAddress } from 'node:dns';
import { lookup as systemLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { errorMessages } from '../../error-messages-en.ts';
import { isRagentError, RagentError } from '../../errors.ts';
import {
  type CallFailure,
  classifyFailure,
  type RetryPolicy,
  redactUrl,
  serviceError,
  withRetry,
} from '../../outside-calls.ts';
import { addressRefused, type FetchAllowList, isRefusedAddress } from './address-guard.ts';

/** Who asked: the operator on the CLI (any address), or someone in a chat (public addresses only). */
export type FetchOrigin = 'cli' | 'chat';

export interface FetchSettings {
  timeoutMs: number;
  maxBytes: number;
  allow: FetchAllowList;
  /** A host name's addresses; the system resolver unless given (tests resolve made-up names). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  retry?: RetryPolicy;
}

export interface FetchRequest {
  url: string;
  origin: FetchOrigin;
  signal?: AbortSignal;
  /** A crawl's robots.txt or sitemap (XML): read whatever its type, never ingested. */
  siteFile?: boolean;
}

export interface FetchedResource {
  /** Where the content came from, after redirects (without its fragment). */
  url: string;
  status: number;
  /** The media type, lower case, without parameters ('' when the server sent none). */
  mediaType: string;
  /** The whole Content-Type header, for its charset. */
  contentType: string;
  bytes: Uint8Array;
}

export type Fetcher = (request: FetchRequest) => Promise<FetchedResource>;

export const maxRedirects = 5;
const userAgent = 'ragent/0.1 (document ingestion)';
const fetchRetryPolicy: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxRetryAfterMs: 10_000 };

/** Types a page may have: HTML and text, PDFs, Office and OpenDocument files, e-mail, or "some bytes". */
const readableTypes =
  /^(text\/(html|plain|markdown|x-markdown|csv|tab-separated-values)|application\/(xhtml\+xml|pdf|octet-stream|mbox|vnd\.openxmlformats-officedocument\.[\w.]+|vnd\.oasis\.opendocument\.[\w.]+|vnd\.ms-excel)|message\/rfc822)$/;

export function createFetcher(settings: FetchSettings): Fetcher {
  const resolve =
    settings.resolve ?? ((hostname: string) => systemLookup(hostname, { all: true, verbatim: true }));
  return async ({ url, origin, signal, siteFile = false }) => {
    let current = parseHttpUrl(url);
    const deadline = AbortSignal.timeout(settings.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      for (let redirects = 0; ; redirects++) {
        const answer = await withRetry(
          () => requestOnce(current, { origin, settings, resolve, signal: combined, siteFile }),
          { policy: settings.retry ?? fetchRetryPolicy, signal: combined, classify: classifyFetchFailure },
        );
        if (answer.kind === 'body') return answer.resource;
        if (redirects >= maxRedirects) {
          throw new RagentError(
            'FETCH_TOO_MANY_REDIRECTS',
            errorMessages.FETCH_TOO_MANY_REDIRECTS({ url, limit: maxRedirects }),
            { details: { url: redactUrl(url), limit: maxRedirects } },
          );
        }
        current = parseHttpUrl(new URL(answer.location, current).toString(), url);
      }
    } catch (error) {
      if (deadline.aborted && !signal?.aborted) {
        throw new RagentError(
          'FETCH_TIMEOUT',
          errorMessages.FETCH_TIMEOUT({ url, seconds: Math.round(settings.timeoutMs / 1000) }),
          { cause: error, details: { url: redactUrl(url), timeoutMs: settings.timeoutMs } },
        );
      }
      if (isRagentError(error)) throw error;
      if (signal?.aborted) throw signal.reason;
      const failure = classifyFailure(error);
      throw serviceError(
        'FETCH_FAILED',
        errorMessages.FETCH_FAILED.unfetchable({ url, reason: failure.reason }),
        { service: 'web', url, failure, cause: error },
      );
    }
  };
}

/** A URL the fetcher accepts: http or https, no credentials. */
export function parseHttpUrl(text: string, asked = text): URL {
  let parsed: URL;
  try {
    parsed = new URL(text.trim());
  } catch {
    throw invalidUrl(asked, 'it is not a web address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw invalidUrl(asked, `${parsed.protocol.replace(/:$/, '')} addresses are not fetched`);
  if (parsed.username || parsed.password) throw invalidUrl(asked, 'it carries a user name or password');
  parsed.hash = '';
  return parsed;
}

function invalidUrl(url: string, reason: string): RagentError {
  return new RagentError('FETCH_INVALID_URL', errorMessages.FETCH_INVALID_URL({ url, reason }));
}

/** Our refusals are final; an HTTP status or a network failure goes to the shared classifier. */
function classifyFetchFailure(error: unknown): CallFailure {
  if (isRagentError(error)) return { kind: 'rejected', retryable: false, reason: error.code };
  return classifyFailure(error);
}

type Answer = { kind: 'redirect'; location: string } | { kind: 'body'; resource: FetchedResource };

interface HopContext {
  origin: FetchOrigin;
  settings: FetchSettings;
  resolve: (hostname: string) => Promise<LookupAddress[]>;
  signal: AbortSignal;
  siteFile: boolean;
}

/** An HTTP error status, shaped for classifyFailure (status and headers for Retry-After). */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`HTTP ${status}`);
  }
}

function requestOnce(url: URL, context: HopContext): Promise<Answer> {
  const { origin, settings, signal } = context;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const guarded = origin === 'chat' && !settings.allow.allowsHost(hostname);
  const permitted = (address: string) =>
    !guarded || !isRefusedAddress(address) || settings.allow.allowsAddress(address);
  // An address written in the URL is connected to without a lookup: check it here.
  if (isIP(hostname) !== 0 && !permitted(hostname))
    return Promise.reject(addressRefused(url.toString(), hostname, hostname));
  // The connection resolves through this lookup only, and connects to the address it returns.
  const lookup = (
    name: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    context.resolve(name).then(
      (addresses) => {
        const usable = addresses.filter((entry) => permitted(entry.address));
        const chosen = usable[0];
        if (!chosen) {
          callback(addressRefused(url.toString(), name, addresses[0]?.address ?? name), '', 4);
          return;
        }
        if (options.all) callback(null, [chosen]);
        else callback(null, chosen.address, chosen.family);
      },
      (error: Error) => callback(error, '', 4),
    );
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        agent: false,
        lookup: lookup as never,
        signal,
        headers: {
          'user-agent': userAgent,
          accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/*;q=0.8,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      (response) => {
        handleResponse(url, response, context).then(resolve, (error: unknown) => {
          response.destroy();
          reject(error);
        });
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function handleResponse(url: URL, response: IncomingMessage, context: HopContext): Promise<Answer> {
  const { settings } = context;
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (status >= 300 && status < 400 && location) {
    response.resume();
    return { kind: 'redirect', location };
  }
  if (status < 200 || status >= 300) {
    response.resume();
    throw new HttpStatusError(status, response.headers);
  }
  const contentType = response.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType && !context.siteFile && !readableTypes.test(mediaType)) {
    throw new RagentError(
      'FETCH_UNSUPPORTED_TYPE',
      errorMessages.FETCH_UNSUPPORTED_TYPE({ url, mediaType }),
      { details: { url: redactUrl(url.toString()), mediaType } },
    );
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > settings.maxBytes) throw tooLarge(url, settings);
  const bytes = await readCapped(decoded(response), url, settings);
  return { kind: 'body', resource: { url: url.toString(), status, mediaType, contentType, bytes } };
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip());
  if (encoding === 'deflate') return response.pipe(createInflate());
  if (encoding === 'br') return response.pipe(createBrotliDecompress());
  return response;
}

/** The body, refused as soon as it passes the cap (a compressed body is counted inflated). */
async function readCapped(stream: Readable, url: URL, settings: FetchSettings): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).byteLength;
    if (size > settings.maxBytes) {
      stream.destroy();
      throw tooLarge(url, settings);
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

function tooLarge(url: URL, settings: FetchSettings): RagentError {
  const megabytes = Math.round((settings.maxBytes / 1024 / 1024) * 10) / 10;
  return new RagentError('FETCH_TOO_LARGE', errorMessages.FETCH_TOO_LARGE({ url, megabytes }), {
    details: { url: redactUrl(url.toString()), limitBytes: settings.maxBytes },
  });
}

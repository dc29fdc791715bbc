/**
 * Downloads a PDF attached to a command, from Discord's CDN only (and, when DISCORD_API_URL points
 * at a local Discord for tests, from that same origin). No token is ever sent with the download.
 * Checks the status, the content type, the size (before and while reading) and the PDF signature.
 */
import { RagentError } from '../../errors.ts';

export const discordCdnHosts = ['cdn.discordapp.com', 'media.discordapp.net'];

const pdfSignature = '%PDF-';
const acceptedContentTypes = ['application/pdf', 'application/octet-stream', 'binary/octet-stream'];

export interface DownloadOptions {
  maxBytes: number;
  /** DISCORD_API_URL, when set: its origin may serve attachments too. */
  apiUrl: string | undefined;
  timeoutMs?: number;
}

export function isAllowedAttachmentUrl(url: string, apiUrl: string | undefined): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'https:' && discordCdnHosts.includes(parsed.hostname) && parsed.port === '')
    return true;
  return apiUrl !== undefined && parsed.origin === new URL(apiUrl).origin;
}

export async function downloadAttachment(url: string, options: DownloadOptions): Promise<Uint8Array> {
  if (!isAllowedAttachmentUrl(url, options.apiUrl)) {
    throw new RagentError(
      'DOWNLOAD_FAILED',
      "That file isn't hosted on Discord's CDN, so I won't download it. Attach the PDF to the command directly.",
      { details: { host: safeHost(url) } },
    );
  }
  let response: Response;
  try {
    response = await fetch(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    });
  } catch (error) {
    throw new RagentError(
      'DOWNLOAD_FAILED',
      "I couldn't download the file from Discord. Try again in a moment.",
      {
        cause: error,
      },
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RagentError(
      'DOWNLOAD_FAILED',
      `Discord answered ${response.status} when I downloaded the file. Attach it again and retry.`,
      { details: { status: response.status } },
    );
  }
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (contentType && !acceptedContentTypes.includes(contentType)) {
    await response.body?.cancel();
    throw notPdf(`it was served as ${contentType}`);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    await response.body?.cancel();
    throw tooLarge(declared, options.maxBytes);
  }
  const bytes = await readCapped(response, options.maxBytes);
  if (bytes.byteLength === 0) {
    throw new RagentError('FILE_EMPTY', 'The attached file is empty. Attach the PDF again.');
  }
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  if (!head.includes(pdfSignature)) throw notPdf("it doesn't start like a PDF");
  return bytes;
}

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(await response.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let result: Awaited<ReturnType<typeof reader.read>>;
    try {
      result = await reader.read();
    } catch (error) {
      throw new RagentError('DOWNLOAD_FAILED', 'The download from Discord broke off. Try again.', {
        cause: error,
      });
    }
    if (result.done) break;
    total += result.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(total, maxBytes);
    }
    chunks.push(result.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

export function tooLarge(bytes: number, maxBytes: number): RagentError {
  return new RagentError(
    'FILE_TOO_LARGE',
    `The file is ${megabytes(bytes)}, over the ${megabytes(maxBytes)} limit. Split it, or ask the operator to raise RAGENT_MAX_FILE_MB.`,
    { details: { bytes, maxBytes } },
  );
}

function notPdf(why: string): RagentError {
  return new RagentError('FILE_UNSUPPORTED', `That file isn't a PDF (${why}). I can only add PDF documents.`);
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid url';
  }
}

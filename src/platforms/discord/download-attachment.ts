/**
 * Downloads a file attached to a command, from Discord's CDN only (and, when DISCORD_API_URL points
 * at a local Discord for tests, from that same origin). No token is ever sent with the download.
 * The response is checked like every download (status, size before and while reading: see
 * read-download); which type the file is, is told by the ingest from its bytes (the CDN serves
 * whatever type the uploader's client claimed).
 */
import { describeError, RagentError } from '../../errors.ts';
import { type DownloadErrors, readDownload } from '../shared/read-download.ts';

export const discordCdnHosts = ['cdn.discordapp.com', 'media.discordapp.net'];

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
      "That file isn't hosted on Discord's CDN, so I won't download it. Attach the file to the command directly.",
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
    if (/unexpected redirect/i.test(describeError((error as { cause?: unknown }).cause))) {
      // A redirect could lead anywhere: attachments are only fetched from Discord's own CDN.
      throw new RagentError(
        'DOWNLOAD_FAILED',
        "Discord sent the download of this file to another address, so I did not follow it (I only download from Discord's own file servers). Attach the file to the command again; if it keeps happening, tell the operator.",
        { cause: error },
      );
    }
    throw new RagentError(
      'DOWNLOAD_FAILED',
      "I couldn't download the file from Discord (the connection failed or took too long). Try again in a moment; if it keeps failing, tell the operator.",
      { cause: error },
    );
  }
  return readDownload(response, { maxBytes: options.maxBytes }, discordDownloadErrors(options.maxBytes));
}

function discordDownloadErrors(maxBytes: number): DownloadErrors {
  return {
    status: (status) =>
      new RagentError(
        'DOWNLOAD_FAILED',
        `Discord answered ${status} when I downloaded the file. Attach it again and retry.`,
        { details: { status } },
      ),
    tooLarge: (bytes) => tooLarge(bytes, maxBytes),
    brokenOff: (cause) =>
      new RagentError('DOWNLOAD_FAILED', 'The download from Discord broke off. Try again.', { cause }),
    empty: () => new RagentError('FILE_EMPTY', 'The attached file is empty. Attach the file again.'),
  };
}

export function tooLarge(bytes: number, maxBytes: number): RagentError {
  return new RagentError(
    'FILE_TOO_LARGE',
    `The file is ${megabytes(bytes)}, over the ${megabytes(maxBytes)} limit. Split it, or ask the operator to raise RAGENT_MAX_FILE_MB.`,
    { details: { bytes, maxBytes } },
  );
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

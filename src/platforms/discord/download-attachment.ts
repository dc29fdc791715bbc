/**
 * Downloads a file attached to a command, from Discord's CDN only (and, when DISCORD_API_URL points
 * at a local Discord for tests, from that same origin). No token is ever sent with the download.
 * The response is checked like every download (status, size before and while reading: see
 * read-download); which type the file is, is told by the ingest from its bytes (the CDN serves
 * whatever type the uploader's client claimed).
 */
import { describeError, RagentError } from '../../errors.ts';
import { type DownloadErrors, readDownload } from '../shared/read-download.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';

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
    throw new RagentError('DOWNLOAD_FAILED', discordErrorMessages.DOWNLOAD_FAILED.hostRefused(), {
      details: { host: safeHost(url) },
    });
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
      throw new RagentError('DOWNLOAD_FAILED', discordErrorMessages.DOWNLOAD_FAILED.redirectRefused(), {
        cause: error,
      });
    }
    throw new RagentError('DOWNLOAD_FAILED', discordErrorMessages.DOWNLOAD_FAILED.unreachable(), {
      cause: error,
    });
  }
  return readDownload(response, { maxBytes: options.maxBytes }, discordDownloadErrors(options.maxBytes));
}

function discordDownloadErrors(maxBytes: number): DownloadErrors {
  return {
    status: (status) =>
      new RagentError('DOWNLOAD_FAILED', discordErrorMessages.DOWNLOAD_FAILED.status({ status }), {
        details: { status },
      }),
    tooLarge: (bytes) => tooLarge(bytes, maxBytes),
    brokenOff: (cause) =>
      new RagentError('DOWNLOAD_FAILED', discordErrorMessages.DOWNLOAD_FAILED.brokenOff(), { cause }),
    empty: () => new RagentError('FILE_EMPTY', discordErrorMessages.FILE_EMPTY()),
  };
}

export function tooLarge(bytes: number, maxBytes: number): RagentError {
  return new RagentError('FILE_TOO_LARGE', discordErrorMessages.FILE_TOO_LARGE({ bytes, maxBytes }), {
    details: { bytes, maxBytes },
  });
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid url';
  }
}

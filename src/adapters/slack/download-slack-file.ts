/**
 * Downloads a file a user shared with the bot, with the bot token — and only ever from Slack's own
 * file hosts (files.slack.com, https hosts under slack.com and slack-edge.com; plus the configured
 * `SLACK_API_URL` origin, which is how tests and proxies serve files). Redirects are followed by hand
 * so the token never travels elsewhere. Status, content type and size are checked before the bytes
 * are handed on; a sign-in page instead of a PDF is recognised as such.
 */
import { RagentError } from '../../errors.ts';

export interface SlackFileReference {
  id: string;
  name: string;
  /** Bytes, as Slack reports them. */
  size?: number;
  mimetype?: string;
  filetype?: string;
  url_private_download?: string;
  url_private?: string;
}

export interface DownloadOptions {
  botToken: string;
  /** SLACK_API_URL, when set: its origin may serve files too. */
  apiUrl: string | undefined;
  maxBytes: number;
  timeoutMs?: number;
}

const maxRedirects = 3;
const acceptedTypes = [
  'application/pdf',
  'application/octet-stream',
  'binary/octet-stream',
  'application/x-pdf',
];

export function isSlackFileHost(url: URL, apiUrl: string | undefined): boolean {
  if (apiUrl && url.origin === new URL(apiUrl).origin) return true;
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return (
    host === 'files.slack.com' ||
    host === 'slack.com' ||
    host.endsWith('.slack.com') ||
    host === 'slack-edge.com' ||
    host.endsWith('.slack-edge.com')
  );
}

export function isPdfFile(file: SlackFileReference): boolean {
  return (
    file.filetype === 'pdf' || file.mimetype === 'application/pdf' || file.name.toLowerCase().endsWith('.pdf')
  );
}

export async function downloadSlackFile(
  file: SlackFileReference,
  options: DownloadOptions,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new RagentError(
      'FILE_TOO_LARGE',
      `${file.name} is larger than the ${Math.round(options.maxBytes / 1024 / 1024)} MB limit. ` +
        'Split it into smaller PDFs, or ask the admin to raise RAGENT_MAX_FILE_MB.',
      { details: { file: file.id, size: file.size } },
    );
  if (file.size !== undefined && file.size > options.maxBytes) throw tooLarge();
  const source = file.url_private_download ?? file.url_private;
  if (!source) throw downloadFailed(file, 'Slack gave no download link for it', { file: file.id });

  let url = new URL(source);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    if (!isSlackFileHost(url, options.apiUrl)) {
      throw downloadFailed(file, 'its download link does not point to Slack', {
        file: file.id,
        host: url.host,
      });
    }
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${options.botToken}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    }).catch((error: unknown) => {
      throw downloadFailed(file, 'Slack could not be reached', { file: file.id }, error);
    });
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location) throw downloadFailed(file, 'Slack redirected without a target', { file: file.id });
      url = new URL(location, url);
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw downloadFailed(file, `Slack answered HTTP ${response.status}`, {
        file: file.id,
        status: response.status,
      });
    }
    const contentType =
      (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!acceptedTypes.includes(contentType)) {
      await response.body?.cancel();
      throw downloadFailed(
        file,
        contentType === 'text/html'
          ? 'Slack sent a sign-in page instead of the file (the bot may lack the files:read scope)'
          : `Slack sent ${contentType || 'an unknown type'} instead of a PDF`,
        { file: file.id, contentType },
      );
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > options.maxBytes) {
      await response.body?.cancel();
      throw tooLarge();
    }
    return readLimited(response, options.maxBytes, tooLarge);
  }
  throw downloadFailed(file, 'Slack redirected too many times', { file: file.id });
}

async function readLimited(
  response: Response,
  maxBytes: number,
  tooLarge: () => RagentError,
): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function downloadFailed(
  file: SlackFileReference,
  reason: string,
  details: Record<string, unknown>,
  cause?: unknown,
): RagentError {
  return new RagentError(
    'DOWNLOAD_FAILED',
    `Could not download ${file.name}: ${reason}. Try uploading it again.`,
    {
      details,
      cause,
    },
  );
}

/**
 * Downloads a file a user shared with the bot, with the bot token — and only ever from Slack's own
 * file hosts (files.slack.com, https hosts under slack.com and slack-edge.com; plus the configured
 * `SLACK_API_URL` origin, which is how tests and proxies serve files). Redirects are followed by hand
 * so the token never travels elsewhere. The response is checked like every PDF download (status,
 * content type, size, signature: see read-pdf-download); a sign-in page is recognised as such.
 */
import { RagentError } from '../../errors.ts';
import { type PdfDownloadErrors, readPdfDownload } from '../shared/read-pdf-download.ts';

export interface SlackFileReference {
  id: string;
  name: string;
  /** Bytes, as Slack reports them. */
  size?: number;
  mimetype?: string;
  filetype?: string;
  url_private_download?: string;
  url_private?: string;
  /** The file's page in Slack (what an answer's source links to). */
  permalink?: string;
}

export interface DownloadOptions {
  botToken: string;
  /** SLACK_API_URL, when set: its origin may serve files too. */
  apiUrl: string | undefined;
  maxBytes: number;
  timeoutMs?: number;
}

const maxRedirects = 3;

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
    return readPdfDownload(response, options.maxBytes, slackDownloadErrors(file, tooLarge));
  }
  throw downloadFailed(file, 'Slack redirected too many times', { file: file.id });
}

function slackDownloadErrors(file: SlackFileReference, tooLarge: () => RagentError): PdfDownloadErrors {
  return {
    status: (status) => downloadFailed(file, `Slack answered HTTP ${status}`, { file: file.id, status }),
    contentType: (contentType) =>
      downloadFailed(
        file,
        contentType === 'text/html'
          ? 'Slack sent a sign-in page instead of the file (the bot may lack the files:read scope)'
          : `Slack sent ${contentType} instead of a PDF`,
        { file: file.id, contentType },
      ),
    tooLarge,
    brokenOff: (cause) => downloadFailed(file, 'the download broke off', { file: file.id }, cause),
    empty: () => new RagentError('FILE_EMPTY', `${file.name} is empty. Upload the PDF again.`),
    notPdf: () =>
      new RagentError(
        'FILE_UNSUPPORTED',
        `${file.name} is not a PDF (it does not start like one). I can only read PDF files; export it as PDF and try again.`,
        { details: { file: file.id } },
      ),
  };
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

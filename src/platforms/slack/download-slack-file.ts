/**
 * Downloads a file a user shared with the bot, with the bot token — and only ever from Slack's own
 * file hosts (files.slack.com, https hosts under slack.com and slack-edge.com; plus the configured
 * `SLACK_API_URL` origin, which is how tests and proxies serve files). Redirects are followed by hand
 * so the token never travels elsewhere. The response is checked like every download (status, size:
 * see read-download); a sign-in page served instead of a file is recognised as such. Which type the
 * file is, is told by the ingest from its bytes.
 */
import { RagentError } from '../../errors.ts';
import { type DownloadErrors, readDownload } from '../shared/read-download.ts';

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

/** An HTML file is served as text/html; for any other file that type is Slack's sign-in page. */
function isHtmlFile(file: SlackFileReference): boolean {
  return (
    file.filetype === 'html' || file.mimetype === 'text/html' || /\.html?$/i.test(file.name.toLowerCase())
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
        'Split it into smaller files, or ask the admin to raise RAGENT_MAX_FILE_MB.',
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
    return readDownload(
      response,
      {
        maxBytes: options.maxBytes,
        refuseContentType: (contentType) =>
          contentType === 'text/html' && !isHtmlFile(file)
            ? downloadFailed(
                file,
                'Slack sent a sign-in page instead of the file (the bot may lack the files:read scope)',
                { file: file.id, contentType },
              )
            : undefined,
      },
      slackDownloadErrors(file, tooLarge),
    );
  }
  throw downloadFailed(file, 'Slack redirected too many times', { file: file.id });
}

function slackDownloadErrors(file: SlackFileReference, tooLarge: () => RagentError): DownloadErrors {
  return {
    status: (status) => downloadFailed(file, `Slack answered HTTP ${status}`, { file: file.id, status }),
    tooLarge,
    brokenOff: (cause) => downloadFailed(file, 'the download broke off', { file: file.id }, cause),
    empty: () => new RagentError('FILE_EMPTY', `${file.name} is empty. Upload the file again.`),
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

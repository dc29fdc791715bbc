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
import { slackErrorMessages } from './slack-error-messages-en.ts';

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
      slackErrorMessages.FILE_TOO_LARGE({ name: file.name, maxBytes: options.maxBytes }),
      { details: { file: file.id, size: file.size } },
    );
  if (file.size !== undefined && file.size > options.maxBytes) throw tooLarge();
  const source = file.url_private_download ?? file.url_private;
  if (!source) throw downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.noLink(file), { file: file.id });

  let url = new URL(source);
  for (let hop = 0; hop <= maxRedirects; hop++) {
    if (!isSlackFileHost(url, options.apiUrl)) {
      throw downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.hostRefused(file), {
        file: file.id,
        host: url.host,
      });
    }
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${options.botToken}` },
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
    }).catch((error: unknown) => {
      throw downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.unreachable(file), { file: file.id }, error);
    });
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location)
        throw downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.redirectWithoutTarget(file), {
          file: file.id,
        });
      url = new URL(location, url);
      continue;
    }
    return readDownload(
      response,
      {
        maxBytes: options.maxBytes,
        refuseContentType: (contentType) =>
          contentType === 'text/html' && !isHtmlFile(file)
            ? downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.signInPage(file), {
                file: file.id,
                contentType,
              })
            : undefined,
      },
      slackDownloadErrors(file, tooLarge),
    );
  }
  throw downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.tooManyRedirects(file), { file: file.id });
}

function slackDownloadErrors(file: SlackFileReference, tooLarge: () => RagentError): DownloadErrors {
  return {
    status: (status) =>
      downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.status({ name: file.name, status }), {
        file: file.id,
        status,
      }),
    tooLarge,
    brokenOff: (cause) =>
      downloadFailed(slackErrorMessages.DOWNLOAD_FAILED.brokenOff(file), { file: file.id }, cause),
    empty: () => new RagentError('FILE_EMPTY', slackErrorMessages.FILE_EMPTY(file)),
  };
}

/** `message`: one of slackErrorMessages.DOWNLOAD_FAILED's sentences. */
function downloadFailed(message: string, details: Record<string, unknown>, cause?: unknown): RagentError {
  return new RagentError('DOWNLOAD_FAILED', message, { details, cause });
}

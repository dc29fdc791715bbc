/**
 * The core's one download of a file shared in a chat, against real HTTP servers on 127.0.0.1: the
 * host allow-list (for the link and every redirect, so the token stays on the platform's hosts), the
 * size bounds (declared, served, streamed), the time limit, and a typed error for each failure.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedHost } from '../../src/ingestion/allowed-hosts.ts';
import { boundedDownload, type DownloadRequest } from '../../src/ingestion/bounded-download.ts';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function serve(handle: (path: string, response: import('node:http').ServerResponse) => void) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ url: request.url ?? '', headers: request.headers });
    handle(request.url ?? '', response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the bounded download of a chat file', () => {
  let platform: Awaited<ReturnType<typeof serve>>;
  let elsewhere: Awaited<ReturnType<typeof serve>>;
  const held: import('node:http').ServerResponse[] = [];
  beforeAll(async () => {
    elsewhere = await serve((_path, response) => response.end('stolen'));
    platform = await serve((path, response) => {
      const [route, query] = path.split('?');
      switch (route) {
        case '/file.pdf':
          return response.end('%PDF-1.7 body');
        case '/declared-big':
          response.writeHead(200, { 'content-length': '5000' });
          return response.end(Buffer.alloc(5000));
        case '/streamed-big':
          response.writeHead(200, { 'transfer-encoding': 'chunked' });
          response.write(Buffer.alloc(600));
          return response.end(Buffer.alloc(600));
        case '/empty':
          return response.end();
        case '/sign-in':
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return response.end('<html>sign in</html>');
        case '/missing':
          response.writeHead(404);
          return response.end();
        case '/to':
          response.writeHead(302, { location: decodeURIComponent(query?.slice(3) ?? '') });
          return response.end();
        case '/loop':
          response.writeHead(302, { location: '/loop' });
          return response.end();
        case '/no-target':
          response.writeHead(302);
          return response.end();
        case '/silent':
          held.push(response);
          return;
        default:
          response.writeHead(500);
          return response.end();
      }
    });
  });
  afterAll(async () => {
    for (const response of held) response.destroy();
    for (const { server } of [platform, elsewhere]) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  const request = (path: string, more: Partial<DownloadRequest> = {}): DownloadRequest => ({
    url: `${platform.origin}${path}`,
    headers: { authorization: 'Bearer secret-token' },
    allowedHosts: [platform.origin],
    name: 'manual.pdf',
    maxBytes: 1000,
    from: 'Chat',
    ...more,
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('the download should have failed');
      },
      (error: { code: string; message: string; details?: Record<string, unknown> }) => error,
    );

  it('reads a host, a suffix over https on its default port, or a whole origin', () => {
    const hosts = ['files.example.com', '.cdn.example.com', 'http://127.0.0.1:8080'];
    const allowed = (url: string) => isAllowedHost(new URL(url), hosts);
    expect(allowed('https://files.example.com/a')).toBe(true);
    expect(allowed('https://eu.cdn.example.com/a')).toBe(true);
    expect(allowed('http://127.0.0.1:8080/a')).toBe(true);
    expect(allowed('http://files.example.com/a')).toBe(false);
    expect(allowed('https://files.example.com:8443/a')).toBe(false);
    expect(allowed('https://files.example.com.evil.io/a')).toBe(false);
    expect(allowed('https://evilcdn.example.com/a')).toBe(false);
    expect(allowed('https://cdn.example.com/a')).toBe(false);
    expect(allowed('http://127.0.0.1:8081/a')).toBe(false);
  });

  it('downloads the file with the platform’s headers', async () => {
    const bytes = await boundedDownload(request('/file.pdf'));
    expect(Buffer.from(bytes).toString()).toBe('%PDF-1.7 body');
    expect(platform.seen.at(-1)?.headers.authorization).toBe('Bearer secret-token');
  });

  it('never contacts a host off the list, for the link or a redirect, and says which it was', async () => {
    const direct = await failure(boundedDownload(request('', { url: `${elsewhere.origin}/x` })));
    expect(direct).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      details: { host: new URL(elsewhere.origin).host },
    });
    expect(direct.message).toMatch(/manual\.pdf: its download link does not point to Chat/);
    const redirected = await failure(
      boundedDownload(request(`/to?to=${encodeURIComponent(`${elsewhere.origin}/x`)}`)),
    );
    expect(redirected.code).toBe('DOWNLOAD_FAILED');
    expect(redirected.message).toMatch(
      /sent the download of manual\.pdf to another address, so I did not follow it/,
    );
    expect(redirected.message).not.toContain(elsewhere.origin);
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('follows a redirect within the list, a few times at most', async () => {
    const bytes = await boundedDownload(request(`/to?to=${encodeURIComponent('/file.pdf')}`));
    expect(Buffer.from(bytes).toString()).toBe('%PDF-1.7 body');
    expect((await failure(boundedDownload(request('/loop')))).message).toMatch(/redirected too many times/);
    expect((await failure(boundedDownload(request('/no-target')))).message).toMatch(/without a target/);
  });

  it('refuses a file larger than the limit: as declared, as served, and as it streams', async () => {
    const before = platform.seen.length;
    const declared = await failure(boundedDownload(request('/file.pdf', { declaredSize: 2000 })));
    expect(declared).toMatchObject({ code: 'FILE_TOO_LARGE', details: { bytes: 2000, maxBytes: 1000 } });
    expect(platform.seen.length).toBe(before);
    expect(await failure(boundedDownload(request('/declared-big')))).toMatchObject({
      code: 'FILE_TOO_LARGE',
      details: { bytes: 5000 },
    });
    expect(await failure(boundedDownload(request('/streamed-big')))).toMatchObject({
      code: 'FILE_TOO_LARGE',
      details: { bytes: 1200 },
    });
  });

  it('names each other failure: no link, a status, an empty file, a sign-in page, no answer in time', async () => {
    expect((await failure(boundedDownload(request('', { url: undefined })))).message).toMatch(
      /Chat gave no download link/,
    );
    expect(await failure(boundedDownload(request('/missing')))).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      details: { status: 404 },
    });
    expect((await failure(boundedDownload(request('/empty')))).code).toBe('FILE_EMPTY');
    const signIn = await failure(boundedDownload(request('/sign-in', { htmlIsSignInPage: true })));
    expect(signIn.message).toMatch(/sign-in page instead of the file/);
    // The same answer is the file itself when the file is a web page, or the platform never serves one.
    expect(
      await boundedDownload(request('/sign-in', { htmlIsSignInPage: true, name: 'help.html' })),
    ).toBeTruthy();
    expect(await boundedDownload(request('/sign-in'))).toBeTruthy();
    const late = await failure(boundedDownload(request('/silent', { timeoutMs: 200 })));
    expect(late.code).toBe('DOWNLOAD_FAILED');
    expect(late.message).toMatch(/Chat could not be reached/);
  });
});

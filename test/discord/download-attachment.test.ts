import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RagentError } from '../../src/errors.ts';
import { isAllowedHost, platformHosts } from '../../src/ingestion/allowed-hosts.ts';
import { downloadFrom } from '../../src/ingestion/file-servers.ts';
import { discordCdnHosts, discordFileServers } from '../../src/platforms/discord/download-attachment.ts';

/** An attachment downloaded as `attachmentFile` does: from Discord's file servers, with no token. */
const downloadAttachment = (
  url: string,
  options: { maxBytes: number; apiUrl: string | undefined; name?: string; size?: number },
) =>
  downloadFrom(
    discordFileServers(options.apiUrl),
    { url, name: options.name ?? 'the attached file', size: options.size },
    options.maxBytes,
  );

/** Where an attachment may be downloaded from, as the download checks it (link and redirects). */
const isAllowedAttachmentUrl = (url: string, apiUrl: string | undefined) =>
  URL.canParse(url) && isAllowedHost(new URL(url), platformHosts(discordCdnHosts, apiUrl));

const pdf = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');

describe('downloading a command attachment', () => {
  let server: Server;
  let origin: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers);
      switch (request.url) {
        case '/ok.pdf':
          response.writeHead(200, { 'content-type': 'application/pdf' });
          return response.end(pdf);
        case '/untyped.pdf':
          response.writeHead(200);
          return response.end(pdf);
        case '/page.html':
          response.writeHead(200, { 'content-type': 'text/html' });
          return response.end('<html>');
        case '/fake.pdf':
          response.writeHead(200, { 'content-type': 'application/pdf' });
          return response.end('just text pretending');
        case '/declared-big.pdf':
          response.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(10_000) });
          return response.end(Buffer.alloc(10_000));
        case '/streamed-big.pdf':
          response.writeHead(200, { 'content-type': 'application/pdf', 'transfer-encoding': 'chunked' });
          response.write(pdf);
          return response.end(Buffer.alloc(10_000));
        case '/moved.pdf':
          response.writeHead(302, { location: 'http://127.0.0.2/elsewhere.pdf' });
          return response.end();
        default:
          response.writeHead(404);
          return response.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const options = () => ({ maxBytes: 5_000, apiUrl: `${origin}/api` });
  const code = (promise: Promise<unknown>) =>
    promise.then(
      () => 'resolved',
      (error: RagentError) => error.code,
    );

  it("accepts only Discord's CDN hosts, or the configured API origin", () => {
    expect(isAllowedAttachmentUrl('https://cdn.discordapp.com/attachments/1/2/a.pdf', undefined)).toBe(true);
    expect(isAllowedAttachmentUrl('https://media.discordapp.net/attachments/1/2/a.pdf', undefined)).toBe(
      true,
    );
    expect(isAllowedAttachmentUrl('http://cdn.discordapp.com/attachments/1/2/a.pdf', undefined)).toBe(false);
    expect(isAllowedAttachmentUrl('https://cdn.discordapp.com.evil.example/a.pdf', undefined)).toBe(false);
    expect(isAllowedAttachmentUrl('https://example.com/a.pdf', undefined)).toBe(false);
    expect(isAllowedAttachmentUrl(`${origin}/ok.pdf`, undefined)).toBe(false);
    expect(isAllowedAttachmentUrl(`${origin}/ok.pdf`, `${origin}/api`)).toBe(true);
    expect(isAllowedAttachmentUrl('not a url', `${origin}/api`)).toBe(false);
  });

  it('downloads a file without sending any credentials', async () => {
    const bytes = await downloadAttachment(`${origin}/ok.pdf`, options());
    expect(Buffer.from(bytes).equals(pdf)).toBe(true);
    expect(seen.at(-1)?.authorization).toBeUndefined();
    expect(Buffer.from(await downloadAttachment(`${origin}/untyped.pdf`, options())).equals(pdf)).toBe(true);
  });

  it('refuses other hosts without contacting them', async () => {
    const before = seen.length;
    expect(await code(downloadAttachment(`${origin}/ok.pdf`, { maxBytes: 5_000, apiUrl: undefined }))).toBe(
      'DOWNLOAD_FAILED',
    );
    expect(seen.length).toBe(before);
  });

  it('checks the status and the size, and leaves the type to the ingest', async () => {
    expect(await code(downloadAttachment(`${origin}/missing.pdf`, options()))).toBe('DOWNLOAD_FAILED');
    // Whatever the CDN calls it, the bytes come back as they are: the ingest tells what they are.
    expect(Buffer.from(await downloadAttachment(`${origin}/page.html`, options())).toString()).toBe('<html>');
    expect(Buffer.from(await downloadAttachment(`${origin}/fake.pdf`, options())).toString()).toBe(
      'just text pretending',
    );
    expect(await code(downloadAttachment(`${origin}/declared-big.pdf`, options()))).toBe('FILE_TOO_LARGE');
    expect(await code(downloadAttachment(`${origin}/streamed-big.pdf`, options()))).toBe('FILE_TOO_LARGE');
    expect(await code(downloadAttachment(`${origin}/moved.pdf`, options()))).toBe('DOWNLOAD_FAILED');
  });

  it('says a refused redirect is a redirect, not a passing glitch', async () => {
    const error = await downloadAttachment(`${origin}/moved.pdf`, options()).catch(
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: 'DOWNLOAD_FAILED' });
    expect((error as RagentError).message).toMatch(
      /sent the download .* to another address, so I did not follow it/,
    );
    expect((error as RagentError).message).not.toMatch(/try again in a moment/i);
    expect((error as RagentError).message).not.toContain('127.0.0.2');
  });
});

/**
 * A platform's file servers as data, downloaded from the same way for every platform, against a real
 * HTTP server on 127.0.0.1: the token as a bearer header only where the platform has one, the
 * configured API origin as the only way off the platform's own hosts, the reported size checked first,
 * and a web page taken for a sign-in page only where the platform answers so and the file is not one.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadFrom, type FileServers } from '../../src/ingestion/file-servers.ts';

describe("a file from a platform's file servers", () => {
  let server: Server;
  let origin: string;
  const seen: IncomingHttpHeaders[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers);
      if (request.url === '/page.html') response.writeHead(200, { 'content-type': 'text/html' });
      response.end(request.url === '/page.html' ? '<html>page</html>' : '%PDF-1.7 body');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const servers = (more: Partial<FileServers>): FileServers => ({
    from: 'Chat',
    hosts: ['files.chat.example'],
    apiUrl: origin,
    ...more,
  });
  const text = (bytes: Uint8Array) => Buffer.from(bytes).toString();

  it('sends the token as a bearer header where the platform has one, and none otherwise', async () => {
    const file = { url: `${origin}/a.pdf`, name: 'a.pdf' };
    expect(text(await downloadFrom(servers({ token: 'secret' }), file, 1_000))).toBe('%PDF-1.7 body');
    expect(seen.at(-1)?.authorization).toBe('Bearer secret');
    await downloadFrom(servers({}), file, 1_000);
    expect(seen.at(-1)?.authorization).toBeUndefined();
  });

  it('reaches the configured API origin only when it is set, and checks the reported size first', async () => {
    const file = { url: `${origin}/a.pdf`, name: 'a.pdf' };
    const before = seen.length;
    await expect(downloadFrom(servers({ apiUrl: undefined }), file, 1_000)).rejects.toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringMatching(/Chat/),
    });
    await expect(downloadFrom(servers({}), { ...file, size: 5_000 }, 1_000)).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
    });
    expect(seen.length).toBe(before);
  });

  it('takes a web page for a sign-in page only where the platform answers so and the file is no page', async () => {
    const page = { url: `${origin}/page.html`, name: 'notes.pdf' };
    await expect(downloadFrom(servers({ signInPage: true }), page, 1_000)).rejects.toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringMatching(/sign-in page/),
    });
    expect(
      text(await downloadFrom(servers({ signInPage: true }), { ...page, isHtml: true }, 1_000)),
    ).toContain('page');
    expect(text(await downloadFrom(servers({}), page, 1_000))).toContain('page');
  });
});

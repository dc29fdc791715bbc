/**
 * The URL fetcher on the wire, against a local website on 127.0.0.1: redirects (5 followed, the 6th
 * refused), the size cap (announced and streamed, compressed too), the content-type check, the
 * deadline, HTTP errors; and the private-address guard of chat-asked fetches — however the address is
 * written, through DNS (a resolver giving loopback for a made-up name), and after a redirect —, the
 * RAGENT_FETCH_ALLOW exceptions, and the CLI (the operator), which may fetch loopback.
 */
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFetchAllowList } from '../../src/ingest/web/address-guard.ts';
import { createFetcher, type FetchSettings } from '../../src/ingest/web/fetch-url.ts';
import { type FakeWebsite, startFakeWebsite } from '../fakes/fake-website.ts';

let site: FakeWebsite;
beforeAll(async () => {
  site = await startFakeWebsite();
  site.page('/page', '<!doctype html><html><body><p>Hello from the page.</p></body></html>');
  for (let hop = 1; hop <= 6; hop++) {
    site.set(`/hop/${hop}`, { status: 302, headers: { location: hop === 1 ? '/page' : `/hop/${hop - 1}` } });
  }
});
afterAll(() => site.close());

/** Made-up names for the tests: `public.test` stands for an ordinary site (it is this server too). */
const names: Record<string, LookupAddress[]> = {
  'loopback.test': [{ address: '127.0.0.1', family: 4 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'metadata.test': [{ address: '169.254.169.254', family: 4 }],
  'public.test': [{ address: '127.0.0.1', family: 4 }],
};

function fetcher(overrides: Partial<FetchSettings> = {}, allow: string[] = ['public.test']) {
  return createFetcher({
    timeoutMs: 2_000,
    maxBytes: 64 * 1024,
    allow: parseFetchAllowList(allow),
    resolve: async (hostname) => {
      const found = names[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    },
    retry: { attempts: 2, baseDelayMs: 10 },
    ...overrides,
  });
}

describe('fetching a URL', () => {
  it('fetches a page, and follows up to 5 redirects', async () => {
    const fetch = fetcher();
    const direct = await fetch({ url: `${site.url}/page#part`, origin: 'cli' });
    expect(direct).toMatchObject({ url: `${site.url}/page`, status: 200, mediaType: 'text/html' });
    expect(new TextDecoder().decode(direct.bytes)).toContain('Hello from the page.');
    const redirected = await fetch({ url: `${site.url}/hop/5`, origin: 'cli' });
    expect(redirected.url).toBe(`${site.url}/page`);
  });

  it('refuses a sixth redirect', async () => {
    await expect(fetcher()({ url: `${site.url}/hop/6`, origin: 'cli' })).rejects.toMatchObject({
      code: 'FETCH_TOO_MANY_REDIRECTS',
    });
  });

  it('refuses a body over the size cap, announced or not, compressed or not', async () => {
    const big = `<!doctype html><p>${'x'.repeat(100 * 1024)}</p>`;
    site.set('/big', { body: big });
    site.set('/big-chunked', { body: big, headers: { 'transfer-encoding': 'chunked' } });
    site.set('/big-gzip', { body: big, gzip: true });
    for (const path of ['/big', '/big-chunked', '/big-gzip']) {
      const refused = fetcher()({ url: `${site.url}${path}`, origin: 'cli' });
      await expect(refused).rejects.toMatchObject({ code: 'FETCH_TOO_LARGE' });
      await expect(refused).rejects.toThrow(/RAGENT_FETCH_MAX_MB/);
    }
    // A compressed page within the cap is read inflated.
    site.set('/small-gzip', { body: '<!doctype html><p>compressed page</p>', gzip: true });
    const small = await fetcher()({ url: `${site.url}/small-gzip`, origin: 'cli' });
    expect(new TextDecoder().decode(small.bytes)).toContain('compressed page');
  });

  it('refuses a type it cannot read before reading it', async () => {
    site.set('/logo.png', {
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      headers: { 'content-type': 'image/png' },
    });
    site.set('/data.json', { body: '{}', headers: { 'content-type': 'application/json' } });
    for (const path of ['/logo.png', '/data.json']) {
      await expect(fetcher()({ url: `${site.url}${path}`, origin: 'cli' })).rejects.toMatchObject({
        code: 'FETCH_UNSUPPORTED_TYPE',
      });
    }
    site.set('/report.pdf', { body: '%PDF-1.7 …', headers: { 'content-type': 'application/pdf' } });
    const pdf = await fetcher()({ url: `${site.url}/report.pdf`, origin: 'cli' });
    expect(pdf.mediaType).toBe('application/pdf');
  });

  it('gives up on a slow server at the deadline', async () => {
    site.set('/slow', { hang: true });
    const slow = fetcher({ timeoutMs: 300 })({ url: `${site.url}/slow`, origin: 'cli' });
    await expect(slow).rejects.toMatchObject({ code: 'FETCH_TIMEOUT' });
    await expect(slow).rejects.toThrow(/RAGENT_FETCH_TIMEOUT_S/);
  });

  it('says what an HTTP error or a bad address was', async () => {
    await expect(fetcher()({ url: `${site.url}/missing`, origin: 'cli' })).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      details: { status: 404, failure: 'not-found' },
    });
    site.set('/broken', { status: 500, body: 'oops' });
    const before = site.requests.filter((request) => request.path === '/broken').length;
    await expect(fetcher()({ url: `${site.url}/broken`, origin: 'cli' })).rejects.toMatchObject({
      code: 'FETCH_FAILED',
      details: { status: 500 },
    });
    // HTTP 500 is retried under the outside-call policy (2 attempts here); a 404 is not.
    expect(site.requests.filter((request) => request.path === '/broken').length - before).toBe(2);
    for (const url of ['ftp://example.com/file', 'not a url', 'http://user:secret@example.com/']) {
      await expect(fetcher()({ url, origin: 'cli' })).rejects.toMatchObject({ code: 'FETCH_INVALID_URL' });
    }
  });
});

describe('the private-address guard of chat fetches', () => {
  const port = () => site.port;
  const loopbackSpellings = () => [
    `http://127.0.0.1:${port()}/page`,
    `http://127.1:${port()}/page`,
    `http://0x7f000001:${port()}/page`,
    `http://2130706433:${port()}/page`,
    `http://0177.0.0.1:${port()}/page`,
    `http://[::ffff:127.0.0.1]:${port()}/page`,
    `http://[::1]:${port()}/page`,
    `http://loopback.test:${port()}/page`,
    `http://mapped.test:${port()}/page`,
    `http://metadata.test:${port()}/page`,
    `http://10.1.2.3:${port()}/page`,
    `http://100.64.0.1:${port()}/page`,
    `http://[fd00::1]:${port()}/page`,
    `http://[fe80::1]:${port()}/page`,
  ];

  it('refuses loopback, private and link-local addresses however they are written', async () => {
    const before = site.requests.length;
    for (const url of loopbackSpellings()) {
      const refused = fetcher()({ url, origin: 'chat' });
      await expect(refused, url).rejects.toMatchObject({ code: 'FETCH_ADDRESS_REFUSED' });
      await expect(refused, url).rejects.toThrow(/RAGENT_FETCH_ALLOW/);
    }
    // None of them reached the server.
    expect(site.requests.length).toBe(before);
  });

  it('refuses a redirect from an allowed site to a private address', async () => {
    site.set('/to-loopback', { status: 302, headers: { location: `http://127.0.0.1:${port()}/page` } });
    site.set('/to-name', { status: 301, headers: { location: `http://loopback.test:${port()}/page` } });
    site.set('/to-decimal', { status: 307, headers: { location: `http://2130706433:${port()}/page` } });
    const pageRequests = () => site.requests.filter((request) => request.path === '/page').length;
    const before = pageRequests();
    for (const path of ['/to-loopback', '/to-name', '/to-decimal']) {
      await expect(
        fetcher()({ url: `http://public.test:${port()}${path}`, origin: 'chat' }),
        path,
      ).rejects.toMatchObject({ code: 'FETCH_ADDRESS_REFUSED' });
    }
    // The redirects were asked for; the page behind them never was (each fetch had ended).
    expect(site.requests.filter((request) => request.path === '/to-name').length).toBeGreaterThan(0);
    expect(pageRequests()).toBe(before);
  });

  it('fetches what RAGENT_FETCH_ALLOW lists: an address, a range or a host name', async () => {
    for (const allow of [['127.0.0.1'], ['127.0.0.0/8'], ['loopback.test']]) {
      const url =
        allow[0] === 'loopback.test' ? `http://loopback.test:${port()}/page` : `http://127.1:${port()}/page`;
      const fetched = await fetcher({}, allow)({ url, origin: 'chat' });
      expect(fetched.status, allow.join()).toBe(200);
    }
    // An allowed range does not open another one.
    await expect(
      fetcher({}, ['10.0.0.0/8'])({ url: `http://127.0.0.1:${port()}/page`, origin: 'chat' }),
    ).rejects.toMatchObject({ code: 'FETCH_ADDRESS_REFUSED' });
  });

  it('lets the CLI (the operator) fetch loopback', async () => {
    for (const url of [`http://127.1:${port()}/page`, `http://loopback.test:${port()}/page`]) {
      expect((await fetcher()({ url, origin: 'cli' })).status).toBe(200);
    }
  });
});

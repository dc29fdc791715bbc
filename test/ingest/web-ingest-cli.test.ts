/**
 * Web pages from the CLI, through the real program against a local website: `ragent ingest <url>`
 * (main content only, named and linked by its address; the same content again is unchanged even when
 * the page around it changed, new content replaces it), `--crawl` (links within the start folder,
 * robots.txt honoured, or the sitemap; `--max-pages`), and `ragent reindex --refetch`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWebsite, sitePage, startFakeWebsite } from '../fakes/fake-website.ts';
import { runCli } from '../support/run-cli.ts';

let workDir: string;
let site: FakeWebsite;
beforeAll(async () => {
  workDir = await mkdtemp(path.join(tmpdir(), 'ragent-web-cli-'));
  site = await startFakeWebsite();
});
afterAll(async () => {
  await site.close();
  await rm(workDir, { recursive: true, force: true });
});
afterEach(() => {
  process.exitCode = undefined;
});

async function run(args: string[], dataDir = 'data') {
  const result = await runCli(args, {
    RAGENT_DATA_DIR: path.join(workDir, dataDir),
    RAGENT_EMBEDDINGS: 'none',
    RAGENT_FETCH_TIMEOUT_S: '5',
  });
  if (result.thrown) throw result.thrown;
  return result;
}

interface JsonHit {
  file: string;
  section: string[];
  text: string;
}
async function search(query: string, dataDir = 'data'): Promise<JsonHit[]> {
  return JSON.parse((await run(['search', query, '--json'], dataDir)).text) as JsonHit[];
}

const returnsPage = (refundDays: string, cookieText = 'We use cookies') =>
  sitePage({
    title: 'Returns policy',
    links: ['/handbook/shipping'],
    sections: [
      {
        heading: 'Refunds',
        text: `Refunds reach the original payment card within ${refundDays} working days.`,
      },
      { heading: 'Exceptions', text: 'Gift vouchers and opened software cannot be returned at all.' },
    ],
  }).replace('We use cookies', cookieText);

describe('ragent ingest <url>', () => {
  it('ingests the main content of a page, named and cited by its address and headings', async () => {
    site.page('/handbook/returns', returnsPage('five'));
    const url = `${site.url}/handbook/returns`;
    const ingested = await run(['ingest', url]);
    expect(ingested.code).toBe(0);
    expect(ingested.text).toContain(`✓ ${url}: ingested`);

    const [hit] = await search('refund payment card working days');
    expect(hit?.file).toBe(url);
    expect(hit?.section).toEqual(['Returns policy', 'Refunds']);
    expect(hit?.text).toContain('within five working days');
    // Navigation, the cookie banner and the footer are not part of the document.
    for (const furniture of ['cookies', 'Copyright 2026', 'Acme Handbook', '/handbook/shipping']) {
      expect(await search(furniture)).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ text: expect.stringContaining(furniture) })]),
      );
    }
    const listed = await run(['docs', 'list', '--json']);
    expect(JSON.parse(listed.text)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: url, link: url })]),
    );
  });

  it('keeps a page whose content did not change, and replaces one whose content did', async () => {
    const url = `${site.url}/handbook/returns`;
    // Only the furniture changed (another cookie text): the content, and so the document, is the same.
    site.page('/handbook/returns', returnsPage('five', 'Cookies keep this site running'));
    expect((await run(['ingest', url])).text).toContain(`= ${url}: unchanged`);
    site.page('/handbook/returns', returnsPage('ten'));
    expect((await run(['ingest', url])).text).toMatch(new RegExp(`✓ ${url}: replaced \\w{12} → \\w{12}`));
    const [hit] = await search('refund payment card working days');
    expect(hit?.text).toContain('within ten working days');
    expect((await run(['docs', 'list'])).text).toContain('1 document in shared.');
  });

  it('refetches every web page with `ragent reindex --refetch`, replacing only changed ones', async () => {
    site.page(
      '/handbook/shipping',
      sitePage({
        title: 'Shipping',
        sections: [{ heading: 'Couriers', text: 'Parcels travel with a tracked courier.' }],
      }),
    );
    await run(['ingest', `${site.url}/handbook/shipping`]);
    site.page('/handbook/returns', returnsPage('fifteen'));
    const refetched = await run(['reindex', '--refetch']);
    expect(refetched.code).toBe(0);
    expect(refetched.text).toMatch(new RegExp(`✓ ${site.url}/handbook/returns: replaced`));
    expect(refetched.text).toContain(`= ${site.url}/handbook/shipping: unchanged`);
    expect(refetched.text).toContain('Fetched 2 pages again, 0 failed.');
    expect((await search('refund payment card working days'))[0]?.text).toContain(
      'within fifteen working days',
    );
  });

  it('reports a page that cannot be fetched, and still ingests the others of the same run', async () => {
    site.set('/handbook/photo', { body: 'GIF89a', headers: { 'content-type': 'image/gif' } });
    site.page(
      '/handbook/contact',
      sitePage({
        title: 'Contact',
        sections: [{ heading: 'Phone', text: 'Call the service desk on extension 4410.' }],
      }),
    );
    const mixed = await run(
      ['ingest', `${site.url}/handbook/photo`, `${site.url}/handbook/contact`],
      'mixed',
    );
    expect(mixed.code).toBe(1);
    expect(mixed.text).toMatch(/✗ .*\/handbook\/photo: .*image\/gif/);
    expect(mixed.text).toContain(`✓ ${site.url}/handbook/contact: ingested`);
    expect(mixed.text).toContain('1 ingested or up to date, 1 failed.');
  });
});

describe('ragent ingest <url> --crawl', () => {
  it('follows the links under the start folder, honours robots.txt and stops at --max-pages', async () => {
    const link = (names: string[]) => names.map((name) => `/guide/${name}`);
    site.set('/robots.txt', {
      body: 'User-agent: *\nDisallow: /guide/private/\n',
      headers: { 'content-type': 'text/plain' },
    });
    site.page(
      '/guide/',
      sitePage({
        title: 'Guide',
        links: [...link(['alpha', 'beta', 'private/keys']), '/outside', 'http://elsewhere.invalid/x'],
        sections: [{ heading: 'Start', text: 'The guide starts here.' }],
      }),
    );
    site.page(
      '/guide/alpha',
      sitePage({
        title: 'Alpha',
        links: link(['gamma']),
        sections: [{ heading: 'Pumps', text: 'The alpha pump primes itself.' }],
      }),
    );
    site.page(
      '/guide/beta',
      sitePage({
        title: 'Beta',
        links: link(['alpha']),
        sections: [{ heading: 'Valves', text: 'The beta valve opens one way.' }],
      }),
    );
    site.page(
      '/guide/gamma',
      sitePage({
        title: 'Gamma',
        sections: [{ heading: 'Seals', text: 'The gamma seal is replaced yearly.' }],
      }),
    );
    site.page(
      '/guide/private/keys',
      sitePage({ title: 'Keys', sections: [{ heading: 'Secret', text: 'The master key code is 0000.' }] }),
    );
    site.page(
      '/outside',
      sitePage({ title: 'Outside', sections: [{ heading: 'Else', text: 'Not part of the guide.' }] }),
    );

    const crawled = await run(['ingest', `${site.url}/guide/`, '--crawl'], 'crawl');
    expect(crawled.code).toBe(0);
    for (const page of ['/guide/', '/guide/alpha', '/guide/beta', '/guide/gamma']) {
      expect(crawled.text).toContain(`✓ ${site.url}${page}: ingested`);
    }
    expect(crawled.text).toContain('4 pages read from its links');
    expect(crawled.text).not.toContain('private');
    expect(crawled.text).not.toContain('/outside');
    expect(site.requests.some((request) => request.path === '/guide/private/keys')).toBe(false);
    expect((await search('gamma seal yearly', 'crawl'))[0]?.file).toBe(`${site.url}/guide/gamma`);

    const limited = await run(['ingest', `${site.url}/guide/`, '--crawl', '--max-pages', '2'], 'limited');
    expect(limited.text).toContain('2 pages read from its links (stopped at --max-pages 2)');
    expect(limited.text.match(/: ingested/g)).toHaveLength(2);
  });

  it('reads the sitemap when the site has one', async () => {
    const mapped = await startFakeWebsite();
    try {
      mapped.set('/sitemap.xml', {
        headers: { 'content-type': 'application/xml' },
        body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${mapped.url}/kb/one</loc></url><url><loc>${mapped.url}/kb/unlinked</loc></url></urlset>`,
      });
      mapped.page(
        '/kb/',
        sitePage({
          title: 'Knowledge base',
          sections: [{ heading: 'Index', text: 'Start of the knowledge base.' }],
        }),
      );
      mapped.page(
        '/kb/one',
        sitePage({ title: 'One', sections: [{ heading: 'First', text: 'The first article.' }] }),
      );
      mapped.page(
        '/kb/unlinked',
        sitePage({
          title: 'Unlinked',
          sections: [{ heading: 'Hidden', text: 'Only the sitemap knows this boiler manual.' }],
        }),
      );
      const crawled = await run(['ingest', `${mapped.url}/kb/`, '--crawl'], 'sitemap');
      expect(crawled.text).toContain('3 pages read from its sitemap');
      expect((await search('boiler manual', 'sitemap'))[0]?.file).toBe(`${mapped.url}/kb/unlinked`);
    } finally {
      await mapped.close();
    }
  });
});

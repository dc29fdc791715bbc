/**
 * A site crawl from one start page: the pages of the start page's site (same scheme, host and port)
 * under its folder — `https://docs.example.com/v2/intro` covers `https://docs.example.com/v2/…` —
 * found through the site's sitemap when it has one (robots.txt `Sitemap:` lines, else /sitemap.xml),
 * else by following the links of each page (navigation included). robots.txt is honoured for every
 * page (user agent "ragent"); the crawl stops after `maxPages` pages and fetches `concurrency` at a time.
 * A page that fails is reported and the crawl goes on.
 */
import { DOMParser } from 'linkedom';
import robotsParserModule from 'robots-parser';
import { errorMessages } from '../../error-messages-en.ts';
import { isRagentError, RagentError } from '../../errors.ts';
import { type Fetcher, type FetchOrigin, parseHttpUrl } from './fetch-url.ts';
import { type WebPage, webPageOf } from './web-page.ts';

export interface CrawlOptions {
  fetch: Fetcher;
  origin: FetchOrigin;
  maxPages: number;
  concurrency: number;
  signal?: AbortSignal;
  /** Each page fetched; awaited before that worker fetches another (so ingestion bounds the pace). */
  onPage: (page: WebPage) => Promise<void>;
  /** A page that could not be fetched or read (its error says why). */
  onFailure?: (url: string, error: RagentError) => void;
}

export interface CrawlReport {
  /** Pages fetched and handed to `onPage`. */
  pages: number;
  failed: number;
  /** Whether the pages came from the site's sitemap (else from links). */
  fromSitemap: boolean;
  /** True when `maxPages` stopped the crawl with pages left. */
  truncated: boolean;
}

const robotsAgent = 'ragent';
// A CommonJS module whose types declare an ES default export: the module itself is the function.
const robotsParser = robotsParserModule as unknown as (url: string, contents: string) => Robots;
/** Sitemap files read (an index and the sitemaps it lists). */
const maxSitemapFiles = 20;
/** Links to files no reader wants, skipped without fetching. */
const skippedExtension =
  /\.(png|jpe?g|gif|webp|svg|ico|bmp|tiff?|mp[34]|m4a|mov|avi|webm|ogg|wav|zip|gz|tgz|bz2|7z|rar|exe|dmg|iso|css|js|mjs|json|woff2?|ttf|eot|xml|rss|atom)$/i;

export async function crawlSite(start: string, options: CrawlOptions): Promise<CrawlReport> {
  const startUrl = parseHttpUrl(start);
  const prefix = `${startUrl.origin}${startUrl.pathname.replace(/[^/]*$/, '')}`;
  const robots = await readRobots(startUrl, options);
  const allowed = (url: string) => robots.isAllowed(url, robotsAgent) !== false;
  if (!allowed(startUrl.toString())) {
    throw new RagentError(
      'FETCH_ROBOTS_DISALLOWED',
      errorMessages.FETCH_ROBOTS_DISALLOWED({ origin: startUrl.origin, url: startUrl }),
      { details: { url: startUrl.toString() } },
    );
  }
  const inScope = (url: string) => url.startsWith(prefix) && !skippedExtension.test(new URL(url).pathname);
  const fromSitemap = (await readSitemaps(startUrl, robots.getSitemaps(), options)).filter(
    (url) => inScope(url) && allowed(url),
  );

  const queue = [startUrl.toString(), ...fromSitemap];
  const seen = new Set(queue);
  const done = new Set<string>();
  let taken = 0;
  let failed = 0;
  let pages = 0;
  const visit = async (url: string) => {
    try {
      const resource = await options.fetch({ url, origin: options.origin, ...signalOf(options) });
      // A redirect may leave the site, or land on a page already read under another address.
      if (!inScope(resource.url) || !allowed(resource.url) || done.has(resource.url)) return;
      done.add(resource.url);
      const page = webPageOf(resource);
      if (fromSitemap.length === 0) {
        for (const link of page.links) {
          if (!seen.has(link) && inScope(link) && allowed(link)) {
            seen.add(link);
            queue.push(link);
          }
        }
      }
      pages++;
      await options.onPage(page);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      failed++;
      options.onFailure?.(url, isRagentError(error) ? error : wrapped(url, error));
    }
  };

  await new Promise<void>((resolve, reject) => {
    let active = 0;
    let stopped = false;
    const pump = () => {
      if (stopped) return;
      if (options.signal?.aborted) {
        stopped = true;
        reject(options.signal.reason);
        return;
      }
      while (active < options.concurrency && taken < options.maxPages && queue.length > 0) {
        const url = queue.shift() as string;
        taken++;
        active++;
        visit(url).then(
          () => {
            active--;
            pump();
          },
          (error: unknown) => {
            stopped = true;
            reject(error);
          },
        );
      }
      if (active === 0) resolve();
    };
    pump();
  });
  return { pages, failed, fromSitemap: fromSitemap.length > 0, truncated: queue.length > 0 };
}

interface Robots {
  isAllowed(url: string, agent?: string): boolean | undefined;
  getSitemaps(): string[];
}

/** The site's robots.txt; none (or one that cannot be read) allows everything, as crawlers agree. */
async function readRobots(startUrl: URL, options: CrawlOptions): Promise<Robots> {
  const robotsUrl = `${startUrl.origin}/robots.txt`;
  try {
    const resource = await options.fetch({
      url: robotsUrl,
      origin: options.origin,
      siteFile: true,
      ...signalOf(options),
    });
    return robotsParser(robotsUrl, new TextDecoder('utf-8').decode(resource.bytes));
  } catch (error) {
    // A refused address or a timeout of the site is the crawl's answer too; a missing file is not.
    if (isRagentError(error) && error.code !== 'FETCH_FAILED') throw error;
    return robotsParser(robotsUrl, '');
  }
}

/** The page addresses of the site's sitemaps (an index's sitemaps followed), or none. */
async function readSitemaps(startUrl: URL, listed: string[], options: CrawlOptions): Promise<string[]> {
  const pending = listed.length > 0 ? [...listed] : [`${startUrl.origin}/sitemap.xml`];
  const pages: string[] = [];
  for (let read = 0; read < maxSitemapFiles && pending.length > 0; read++) {
    const sitemapUrl = pending.shift() as string;
    try {
      if (new URL(sitemapUrl).origin !== startUrl.origin) continue;
      const resource = await options.fetch({
        url: sitemapUrl,
        origin: options.origin,
        siteFile: true,
        ...signalOf(options),
      });
      const xml = new DOMParser().parseFromString(
        new TextDecoder('utf-8').decode(resource.bytes),
        'text/xml',
      );
      const locations = [...xml.querySelectorAll('loc')].map((element) => element.textContent?.trim() ?? '');
      const isIndex = xml.documentElement?.localName === 'sitemapindex';
      for (const location of locations) {
        if (!location) continue;
        const absolute = new URL(location, sitemapUrl);
        absolute.hash = '';
        (isIndex ? pending : pages).push(absolute.toString());
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      if (isRagentError(error) && error.code === 'FETCH_ADDRESS_REFUSED') throw error;
      // No sitemap, or one that cannot be read: links are followed instead.
    }
  }
  return [...new Set(pages)];
}

function signalOf(options: CrawlOptions): { signal?: AbortSignal } {
  return options.signal ? { signal: options.signal } : {};
}

function wrapped(url: string, error: unknown): RagentError {
  return new RagentError(
    'FETCH_FAILED',
    errorMessages.FETCH_FAILED.unreadable({ url, reason: String(error) }),
    { cause: error },
  );
}

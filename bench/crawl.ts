/**
 * npm run bench:crawl [pages] — serves a site of 200 pages (default) on 127.0.0.1, each a realistic
 * article (~600 words in 4 sections) inside navigation, a cookie banner and a footer, linked to the
 * next pages and the index, plus a robots.txt; crawls it with `ragent ingest <url> --crawl` as the CLI
 * does (RAGENT_EMBEDDINGS=none, the default concurrency) into a temporary data dir, and prints the
 * pages, seconds, pages/s, peak RSS and the load average. Target: 200 pages in ≤ 60 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { sharedScope } from '../src/core/types.ts';
import { createLogger } from '../src/logger.ts';
import { createServices } from '../src/main.ts';
import { closeServer, listenLocally } from '../test/fakes/http-helpers.ts';

const pageCount = Number(process.argv[2] ?? 200);
const words = 'pump valve seal boiler radiator thermostat pressure flow inlet outlet gasket filter'.split(
  ' ',
);

function article(page: number): string {
  const sections = [1, 2, 3, 4].map((section) => {
    const sentences = Array.from({ length: 10 }, (_, sentence) => {
      const pick = (offset: number) => words[(page * 7 + section * 3 + sentence + offset) % words.length];
      return `The ${pick(0)} of unit ${page}-${section} is checked with the ${pick(1)} before the ${pick(2)} is opened, step ${sentence + 1}.`;
    });
    return `<h2>Procedure ${section} of page ${page}</h2><p>${sentences.join(' ')}</p>`;
  });
  const links = [1, 2, 3]
    .map(
      (step) => `<a href="/manual/page-${(page + step) % pageCount}">Page ${(page + step) % pageCount}</a>`,
    )
    .join(' ');
  return `<!DOCTYPE html><html><head><title>Maintenance page ${page}</title></head><body>
<header><nav><a href="/manual/">Index</a> ${links}</nav></header>
<div class="cookie-banner">We use cookies. <button>Accept</button></div>
<main><article><h1>Maintenance page ${page}</h1>${sections.join('\n')}</article></main>
<footer>© 2026 Bench Corp · Imprint · Privacy</footer></body></html>`;
}

const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (url === '/robots.txt') {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    return;
  }
  const page = url === '/manual/' ? 0 : Number(/^\/manual\/page-(\d+)$/.exec(url)?.[1] ?? Number.NaN);
  if (!Number.isInteger(page) || page < 0 || page >= pageCount) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(article(page));
});
const port = await listenLocally(server);
const dataDir = mkdtempSync(path.join(tmpdir(), 'ragent-bench-crawl-'));
const config = loadConfig({ RAGENT_DATA_DIR: dataDir, RAGENT_EMBEDDINGS: 'none' }, { envFile: false });
const services = await createServices(config, createLogger({ level: 'silent' }));
try {
  const started = performance.now();
  let ingested = 0;
  let failed = 0;
  const summary = await services.web.crawl(
    {
      url: `http://127.0.0.1:${port}/manual/`,
      scope: sharedScope,
      uploader: 'cli:bench',
      origin: 'cli',
      maxPages: pageCount,
    },
    (outcome) => {
      if ('report' in outcome) ingested++;
      else failed++;
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const documents = await services.ingestion.listDocuments([sharedScope]);
  console.log(
    `pages       ${summary.pages} (${ingested} ingested, ${failed} failed, ${documents.length} documents)`,
  );
  console.log(`concurrency ${config.fetch.crawlConcurrency}`);
  console.log(`seconds     ${seconds.toFixed(2)}`);
  console.log(`pages/s     ${(summary.pages / seconds).toFixed(1)}`);
  console.log(`peak RSS    ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  console.log(`load avg    ${loadavg()[0]?.toFixed(2)} (other work on this machine slows the figures down)`);
} finally {
  await services.close();
  await closeServer(server);
  rmSync(dataDir, { recursive: true, force: true });
}

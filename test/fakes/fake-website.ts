/**
 * A local website on 127.0.0.1 for the fetcher and crawl tests: each path answers what the test put
 * there (a page, a redirect, a status, a slow or never-ending answer, a body larger than announced),
 * unknown paths answer 404, and every request is recorded with its path and headers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { closeServer, listenLocally } from './http-helpers.ts';

export interface FakeRoute {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Sent gzip-compressed (Content-Encoding: gzip). */
  gzip?: boolean;
  /** Never answers (until the server closes). */
  hang?: boolean;
}

export interface FakeWebsite {
  url: string;
  port: number;
  /** Puts a route at a path (with its query, if any). */
  set(path: string, route: FakeRoute): void;
  /** A page of HTML at a path. */
  page(path: string, html: string): void;
  remove(path: string): void;
  requests: Array<{ path: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

export async function startFakeWebsite(): Promise<FakeWebsite> {
  const routes = new Map<string, FakeRoute>();
  const requests: FakeWebsite['requests'] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    const route = routes.get(path);
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (route.hang) return;
    const raw =
      typeof route.body === 'string' ? Buffer.from(route.body, 'utf8') : Buffer.from(route.body ?? '');
    const body = route.gzip ? gzipSync(raw) : raw;
    response.writeHead(route.status ?? 200, {
      'content-type': 'text/html; charset=utf-8',
      ...(route.gzip ? { 'content-encoding': 'gzip' } : {}),
      ...route.headers,
    });
    response.end(body);
  });
  const port = await listenLocally(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    set: (path, route) => routes.set(path, route),
    page: (path, html) => routes.set(path, { body: html }),
    remove: (path) => routes.delete(path),
    requests,
    close: () => closeServer(server),
  };
}

/** A page with the furniture of a real site around its article: navigation, header, cookie banner, footer. */
export function sitePage(options: {
  title: string;
  sections: Array<{ heading: string; text: string }>;
  links?: string[];
}): string {
  const nav = (options.links ?? []).map((href) => `<a href="${href}">${href}</a>`).join(' ');
  const sections = options.sections
    .map((section) => `<h2>${section.heading}</h2>\n<p>${section.text}</p>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${options.title}</title></head>
<body>
<header class="site-header"><a href="/">Acme Handbook</a><nav class="menu">${nav}</nav></header>
<div id="cookie-consent" class="cookie-banner"><p>We use cookies to improve your experience. Accept all cookies?</p><button>Accept</button></div>
<main><article>
<h1>${options.title}</h1>
${sections}
</article></main>
<footer class="site-footer"><p>Copyright 2026 Acme Corporation. Imprint. Privacy policy. Contact us.</p></footer>
</body></html>`;
}

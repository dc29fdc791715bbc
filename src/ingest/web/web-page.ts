/**
 * A fetched resource as what gets ingested: an HTML page becomes the Markdown of its main content
 * (so its document id, the hash of those bytes, changes only when the content does — not with an ad,
 * a timestamp or a session token elsewhere on the page), plus the links a crawl may follow; any other
 * readable file (a PDF, a text) is ingested as it came.
 */
import { decodeHtml, htmlToMarkdown } from '../readers/html-reader.ts';
import { looksLikeHtml } from '../readers/markup-signatures.ts';
import type { FetchedResource } from './fetch-url.ts';

export interface WebPage {
  /** The address the content came from (after redirects, without fragment). */
  url: string;
  /** What is ingested: the Markdown of an HTML page, the bytes of anything else. */
  bytes: Uint8Array;
  /** The page's title ('' when it has none, or for other files). */
  title: string;
  /** Absolute http(s) addresses of the page's links, without fragments, each once. */
  links: string[];
}

export function webPageOf(resource: FetchedResource): WebPage {
  const html =
    resource.mediaType === 'text/html' ||
    resource.mediaType === 'application/xhtml+xml' ||
    ((resource.mediaType === '' || resource.mediaType === 'application/octet-stream') &&
      looksLikeHtml(resource.bytes));
  if (!html) return { url: resource.url, bytes: resource.bytes, title: '', links: [] };
  const content = htmlToMarkdown(decodeHtml(resource.bytes, resource.contentType), { links: true });
  const base = resolve(content.base ?? '', resource.url) ?? resource.url;
  const links = new Set<string>();
  for (const href of content.links) {
    const absolute = resolve(href, base);
    if (absolute) links.add(absolute);
  }
  return {
    url: resource.url,
    bytes: new TextEncoder().encode(content.markdown),
    title: content.title,
    links: [...links],
  };
}

function resolve(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.toString();
  } catch {
    return undefined;
  }
}

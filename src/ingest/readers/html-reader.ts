/**
 * HTML (a saved page or a fetched one) into blocks: the main content only, the way Firefox's reader
 * view finds it (Mozilla Readability on a linkedom document), converted to Markdown by turndown (GFM
 * tables kept) and then read like any Markdown file, so headings become section paths. Navigation,
 * site headers and footers, cookie and consent banners, scripts, forms and images are dropped; links
 * keep their text only (their addresses would be noise in search).
 */
import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type { ExtractedDocument } from '../text-block.ts';
import { markdownToBlocks } from '../text-to-blocks.ts';

export interface HtmlContent {
  /** The page's title (Readability's pick: <title>, og:title or the first heading), '' when none. */
  title: string;
  /** The main content as Markdown, starting with `# title` when there is one. */
  markdown: string;
  /** Every link of the page (navigation included), as written; only when asked for (`links`). */
  links: string[];
  /** The page's <base href>, which its relative links are relative to. */
  base?: string;
}

/** Page furniture no reader wants, removed before Readability looks for the main content. */
const furniture = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'form',
  'nav',
  'aside',
  'dialog',
  'svg',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[aria-hidden="true"]',
  '[hidden]',
].join(', ');

/** Cookie, consent and newsletter banners, named by id or class. */
const bannerName = /cookie|consent|gdpr|newsletter|subscribe|popup|modal|banner|skip-link/i;

export interface HtmlOptions {
  /** Put the title on top as a level-1 heading (default true; an e-mail has its subject instead). */
  title?: boolean;
  /** Collect the page's links (a crawl follows them), before navigation is removed. */
  links?: boolean;
  /**
   * Look for the main content (default true). An e-mail's HTML is all content: Readability, made for
   * pages, would take its title from a heading and drop that heading.
   */
  mainContent?: boolean;
}

export function htmlToMarkdown(html: string, options: HtmlOptions = {}): HtmlContent {
  const { document } = parseHTML(html);
  const links = options.links
    ? [...document.querySelectorAll('a[href]')]
        .filter((anchor) => !/\bnofollow\b/i.test(anchor.getAttribute('rel') ?? ''))
        .map((anchor) => anchor.getAttribute('href') ?? '')
    : [];
  const base = document.querySelector('base[href]')?.getAttribute('href') ?? undefined;
  for (const element of [...document.querySelectorAll(furniture)]) element.remove();
  for (const element of [...document.querySelectorAll('[id], [class]')]) {
    const label = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`;
    if (bannerName.test(label) && !element.closest('main, article')) element.remove();
  }
  // A page's own header and footer (not an article's, which holds its title or byline).
  for (const element of [...document.querySelectorAll('header, footer')]) {
    if (!element.parentElement?.closest('main, article')) element.remove();
  }
  const pageTitle = document.querySelector('title')?.textContent?.trim() ?? '';
  const body = document.body?.innerHTML ?? html;
  // Readability mutates the document; it returns null for a page with too little text to pick from.
  const article =
    options.mainContent === false
      ? null
      : new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
          charThreshold: 0,
        }).parse();
  const title = (article?.title ?? pageTitle).replace(/\s+/g, ' ').trim();
  // One space after a list marker, as the Markdown reader expects (turndown pads to four columns).
  const markdown = turndown()
    .turndown(article?.content ?? body)
    .replace(/^(\s*)([-*]|\d+\.)\s{2,}/gm, '$1$2 ');
  const startsWithTitle =
    title !== '' &&
    new RegExp(`^#{1,2}\\s+${escapeRegExp(title)}\\s*$`, 'm').test(
      markdown.split('\n').find((line) => line.trim() !== '') ?? '',
    );
  return {
    title,
    markdown: options.title !== false && title && !startsWithTitle ? `# ${title}\n\n${markdown}` : markdown,
    links,
    ...(base ? { base } : {}),
  };
}

/** The reader of .html files: the main content's blocks (the title as the top heading). */
export async function readHtml(bytes: Uint8Array): Promise<ExtractedDocument> {
  return markdownToBlocks(htmlToMarkdown(decodeHtml(bytes)).markdown);
}

/** HTML bytes as text: UTF-8 unless the page declares another charset the runtime knows. */
export function decodeHtml(bytes: Uint8Array, contentType?: string): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 2048));
  const declared =
    /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  }
}

function turndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  service.use(gfm);
  service.remove(['img', 'picture', 'video', 'audio', 'button', 'input', 'select', 'textarea']);
  service.addRule('linkText', {
    filter: 'a',
    replacement: (content) => content,
  });
  return service;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

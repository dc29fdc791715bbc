/**
 * PDF → structured Markdown: pages are read (in worker threads for large files), then laid out into
 * headings, paragraphs, lists and code, each block knowing the pages it came from. The PDF's outline
 * (bookmarks), read by the first extraction worker, gives the headings when the document has one.
 */
import { RagentError } from '../errors.ts';
import type { IngestLimits } from './ingest-limits.ts';
import { extractPages } from './pdf/extract-pages.ts';
import { layoutBlocks } from './pdf/layout-blocks.ts';
import type { PageText } from './pdf/page-lines.ts';
import { blocksToMarkdown, type ExtractedDocument } from './text-block.ts';

export interface PdfToMarkdownOptions {
  /** File name, for error messages. */
  name: string;
  /** Worker threads for large documents (config.ingest.workers). */
  workers: number;
  /** Smaller files are read in this thread (default 1 MiB). */
  minBytesForWorkers?: number;
  onPage?: (done: number, total: number) => void;
  /** Pages, text, time and reader memory (default: defaultIngestLimits). */
  limits?: IngestLimits;
  signal?: AbortSignal;
  /** Benchmarks: headings from fonts only, as for a document without an outline. */
  ignoreOutline?: boolean;
}

/** Throws PDF_ENCRYPTED, PDF_CORRUPT, or PDF_NO_TEXT (a scan: no text layer). */
export async function pdfToBlocks(
  bytes: Uint8Array,
  options: PdfToMarkdownOptions,
): Promise<ExtractedDocument> {
  const { pageCount, pages, outline } = await extractPages(bytes, {
    name: options.name,
    workers: options.workers,
    minBytesForWorkers: options.minBytesForWorkers,
    limits: options.limits,
    signal: options.signal,
    ignoreOutline: options.ignoreOutline,
  });
  const collected: PageText[] = [];
  let textPages = 0;
  for await (const page of pages) {
    collected.push(page);
    if (page.lines.length > 0) textPages++;
    options.onPage?.(collected.length, pageCount);
  }
  const entries = await outline;
  if (textPages === 0) {
    throw new RagentError(
      'PDF_NO_TEXT',
      `${options.name} has no text layer (it looks like a scan); OCR is not supported. Ingest a PDF with selectable text.`,
    );
  }
  return { pageCount, blocks: layoutBlocks(collected, options.ignoreOutline ? [] : entries) };
}

export async function pdfToMarkdown(
  bytes: Uint8Array,
  options: PdfToMarkdownOptions,
): Promise<{ pageCount: number; markdown: string }> {
  const { pageCount, blocks } = await pdfToBlocks(bytes, options);
  return { pageCount, markdown: blocksToMarkdown(blocks) };
}

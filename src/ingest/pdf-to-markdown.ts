/**
 * PDF → structured Markdown: pages are read (in worker threads for large files), then laid out into
 * headings, paragraphs, lists and code, each block knowing the pages it came from. The PDF's outline
 * (bookmarks), read by the first extraction worker, gives the headings when the document has one.
 * With OCR on, a page without a text layer (a scan) is recognised in the same threads; its paragraphs
 * are cited by its page and take their place among the other pages' blocks.
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { IngestLimits } from './ingest-limits.ts';
import { type OcrSettings, ocrOff } from './ocr/ocr-settings.ts';
import { recognisedTextToBlocks } from './ocr/recognised-text.ts';
import { type ExtractedPage, extractPages } from './pdf/extract-pages.ts';
import { layoutBlocks } from './pdf/layout-blocks.ts';
import { blocksToMarkdown, type ExtractedDocument, type TextBlock } from './text-block.ts';

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
  /** Default: off. */
  ocr?: OcrSettings;
}

/**
 * Throws PDF_ENCRYPTED, PDF_CORRUPT, PDF_NO_TEXT (no text layer, and OCR off or finding nothing), or
 * one of OCR's refusals.
 */
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
    ocr: options.ocr,
  });
  const collected: ExtractedPage[] = [];
  const recognised: TextBlock[] = [];
  let textPages = 0;
  for await (const page of pages) {
    collected.push(page);
    if (page.lines.length > 0) textPages++;
    if (page.recognised) recognised.push(...recognisedTextToBlocks(page.recognised, page.page));
    options.onPage?.(collected.length, pageCount);
  }
  const entries = await outline;
  if (textPages === 0 && recognised.length === 0) throw pdfWithoutText(options.name, options.ocr ?? ocrOff);
  const laidOut = textPages === 0 ? [] : layoutBlocks(collected, options.ignoreOutline ? [] : entries);
  return { pageCount, blocks: inPageOrder(laidOut, recognised) };
}

/** The refusal of a PDF without text: a scan, with OCR off (or finding nothing on its pages). */
export function pdfWithoutText(name: string, ocr: OcrSettings): RagentError {
  return ocr.enabled
    ? new RagentError(
        'PDF_NO_TEXT',
        errorMessages.PDF_NO_TEXT.ocrFoundNothing({ name, languages: ocr.languages }),
      )
    : new RagentError('PDF_NO_TEXT', errorMessages.PDF_NO_TEXT.ocrOff({ name }));
}

/** Merges the blocks of recognised pages among the laid-out ones, by page (each list is in page order). */
function inPageOrder(laidOut: TextBlock[], recognised: TextBlock[]): TextBlock[] {
  if (recognised.length === 0) return laidOut;
  const merged: TextBlock[] = [];
  let next = 0;
  for (const block of laidOut) {
    while (next < recognised.length && (recognised[next]?.pageStart ?? 0) < block.pageStart) {
      merged.push(recognised[next++] as TextBlock);
    }
    merged.push(block);
  }
  merged.push(...recognised.slice(next));
  return merged;
}

export async function pdfToMarkdown(
  bytes: Uint8Array,
  options: PdfToMarkdownOptions,
): Promise<{ pageCount: number; markdown: string }> {
  const { pageCount, blocks } = await pdfToBlocks(bytes, options);
  return { pageCount, markdown: blocksToMarkdown(blocks) };
}

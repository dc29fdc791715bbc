import type { FontWeights } from './font-weights.ts';
import type { PdfDocument } from './open-pdf.ts';
import { type PageText, pageLines, type TextContentLike } from './page-lines.ts';

/** Thrown when a page holds more text than the reader may take (see readPage). */
export class PageTextTooLarge extends Error {
  constructor(readonly page: number) {
    super(`page ${page} holds more text than the limit`);
  }
}

/**
 * Extracts one page's lines and frees the page's resources right after. The text is streamed from
 * pdf.js in chunks and counted (characters, plus one per text run) on the way: past `maxChars` the
 * stream is cancelled and PageTextTooLarge thrown, so a page whose content inflates to hundreds of
 * MB is never held whole. With `fontWeights`, each line's font key also says whether the font is bold.
 */
export async function readPage(
  document: PdfDocument,
  pageNumber: number,
  maxChars = Number.POSITIVE_INFINITY,
  fontWeights?: FontWeights,
): Promise<{ text: PageText; chars: number }> {
  const page = await document.getPage(pageNumber);
  try {
    const content: TextContentLike & { items: unknown[] } = { items: [], styles: {} };
    let chars = 0;
    for await (const chunk of page.streamTextContent()) {
      Object.assign(content.styles, chunk.styles);
      for (const item of chunk.items) {
        content.items.push(item);
        if ('str' in item) chars += item.str.length + 1;
      }
      if (chars > maxChars) throw new PageTextTooLarge(pageNumber);
    }
    const weights = fontWeights ? await fontWeights.of(page, Object.keys(content.styles)) : undefined;
    return { text: pageLines(pageNumber, content, weights), chars };
  } finally {
    page.cleanup();
  }
}

import type { PdfDocument } from './open-pdf.ts';
import { type PageText, pageLines, type TextContentLike } from './page-lines.ts';

/** Extracts one page's lines and frees the page's resources right after. */
export async function readPage(document: PdfDocument, pageNumber: number): Promise<PageText> {
  const page = await document.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    return pageLines(pageNumber, content as unknown as TextContentLike);
  } finally {
    page.cleanup();
  }
}

/**
 * Compressed-stream bombs, made at test time: a small PDF whose one page's content stream (deflated
 * with zlib) inflates to `inflatedMegabytes` of page content. `kind: 'text'` repeats text runs (so
 * the extracted text grows with it); `kind: 'drawing'` repeats path operators (no text at all, only
 * parsing time); `kind: 'one-run'` is a single text run of that size (one string the reader must build).
 */
import { deflateSync } from 'node:zlib';
import { PDFDocument, type PDFFont, PDFName, type PDFPage, StandardFonts } from 'pdf-lib';

export interface BombOptions {
  inflatedMegabytes: number;
  kind: 'text' | 'drawing' | 'one-run';
  /** The content is spread over this many pages (default 1), each with its own stream. */
  pages?: number;
}

export async function makeBombPdf({ inflatedMegabytes, kind, pages = 1 }: BombOptions): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let page = 0; page < pages; page++) {
    await addBombPage(document, font, (inflatedMegabytes * 1024 * 1024) / pages, kind);
  }
  return document.save({ useObjectStreams: false });
}

/**
 * A page with an ordinary first line drawn by pdf-lib (which also puts the font in the page's resources),
 * and the resource name of that font, for content streams written by hand.
 */
export function addReportPage(
  document: PDFDocument,
  font: PDFFont,
): { page: PDFPage; fontKey: string | undefined } {
  const page = document.addPage([595, 842]);
  page.drawText('Quarterly report', { x: 56, y: 780, size: 12, font });
  const fontKey = page.node
    .Resources()
    ?.lookup(PDFName.of('Font'))
    ?.toString()
    .match(/\/([\w-]+)\s/)?.[1];
  return { page, fontKey };
}

async function addBombPage(
  document: PDFDocument,
  font: PDFFont,
  size: number,
  kind: BombOptions['kind'],
): Promise<void> {
  const { page, fontKey } = addReportPage(document, font);
  const unit =
    kind === 'text'
      ? `BT /${fontKey} 10 Tf 56 700 Td (${'All work and no play makes a dull document. '.repeat(20)}) Tj ET\n`
      : '56 700 m 300 400 l 500 700 l S\n';
  const content =
    kind === 'one-run'
      ? Buffer.from(`BT /${fontKey} 10 Tf 56 700 Td (${'A'.repeat(Math.round(size))}) Tj ET\n`)
      : Buffer.from(unit.repeat(Math.ceil(size / unit.length)));
  const stream = document.context.stream(deflateSync(content, { level: 9 }), { Filter: 'FlateDecode' });
  page.node.addContentStream(document.context.register(stream));
}

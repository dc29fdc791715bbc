/** A small real PDF for ingest tests, made with pdf-lib: one page per entry (its lines, or a text split at newlines), Helvetica. */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function makePdf(pages: Array<string | string[]>): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const entry of pages) {
    const page = document.addPage([595, 842]);
    const lines = typeof entry === 'string' ? entry.split('\n') : entry;
    lines.forEach((line, index) => {
      page.drawText(line, { x: 56, y: 780 - index * 18, size: 12, font });
    });
  }
  return document.save();
}

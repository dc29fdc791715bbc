/** A small real PDF (one page per entry, Helvetica text), made with pdf-lib for the ingest tests. */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage([595, 842]);
    lines.forEach((line, index) => {
      page.drawText(line, { x: 56, y: 780 - index * 18, size: 12, font });
    });
  }
  return document.save();
}

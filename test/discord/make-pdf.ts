/** Small real PDFs for the Discord tests, made with pdf-lib (one page per entry, Helvetica text). */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function makePdf(pages: string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = document.addPage([595, 842]);
    let y = 800;
    for (const line of text.split('\n')) {
      page.drawText(line, { x: 50, y, size: 11, font });
      y -= 16;
    }
  }
  return document.save();
}

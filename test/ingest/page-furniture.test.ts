import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractDocument } from '../../src/ingest/extract-document.ts';

/** A PDF with one line of text per page (a slide deck, a form): `line(page)` is that line. */
async function onePerPage(pages: number, line: (page: number) => string): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page++) {
    document.addPage([612, 792]).drawText(line(page), { x: 72, y: 700, size: 12, font });
  }
  return document.save({ useObjectStreams: false });
}

const texts = async (bytes: Uint8Array) =>
  (await extractDocument(bytes, { name: 'deck.pdf', kind: 'pdf', workers: 1 })).blocks.map(
    (block) => block.text,
  );

describe('running header/footer filter', () => {
  it('keeps a line that repeats apart from its digits when it is all the text of its page', async () => {
    const bytes = await onePerPage(6, (page) => `Room ${100 + page} holds the spare projector cables`);
    expect(await texts(bytes)).toEqual(
      Array.from({ length: 6 }, (_, index) => `Room ${101 + index} holds the spare projector cables`),
    );
  });

  it('keeps a page’s only line even when it carries the page number, so the PDF is not taken for a scan', async () => {
    const bytes = await onePerPage(6, (page) => `Checklist item ${page}`);
    expect(await texts(bytes)).toEqual(
      Array.from({ length: 6 }, (_, index) => `Checklist item ${index + 1}`),
    );
  });

  it('still drops a bare page number on a page of its own', async () => {
    const bytes = await onePerPage(6, (page) =>
      page === 3 ? '3' : `Slide ${page}: the plan for the quarter`,
    );
    expect(await texts(bytes)).not.toContain('3');
  });
});

import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { FontWeights, type PageWithFonts } from '../../src/ingest/pdf/font-weights.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';
import { readFixture } from './fixtures.ts';

describe('headings in bold at the body size, in a PDF without an outline', () => {
  it('are found from the font’s weight (bold-headings.pdf: Helvetica-Bold 10 over Helvetica 10)', async () => {
    const { blocks } = await pdfToBlocks(readFixture('bold-headings.pdf'), {
      name: 'bold-headings.pdf',
      workers: 1,
    });
    const headings = blocks.filter((block) => block.kind === 'heading');
    expect(headings.map((block) => [block.text, block.pageStart])).toEqual([
      ['Unpacking the pump', 1],
      ['Priming', 1],
      ['Daily checks', 1],
      ['Winter storage', 2],
      ['Spare parts', 2],
    ]);
    expect(new Set(headings.map((block) => block.level)).size).toBe(1);
    // The body text stays paragraphs.
    const after = blocks[blocks.findIndex((block) => block.text === 'Priming') + 1];
    expect(after).toMatchObject({ kind: 'paragraph' });
  });
});

describe('font weights with several extraction workers', () => {
  /** 24 pages without an outline, each opening with a title in Helvetica-Bold at the body size. */
  async function boldTitledPages(titles: readonly string[]): Promise<Uint8Array> {
    const document = await PDFDocument.create();
    const body = await document.embedFont(StandardFonts.Helvetica);
    const bold = await document.embedFont(StandardFonts.HelveticaBold);
    for (const title of titles) {
      const page = document.addPage([612, 792]);
      page.drawText(title, { x: 72, y: 700, size: 10, font: bold });
      for (let line = 0; line < 12; line++) {
        const text = 'Check the seals and the pressure gauge before the pump is started again after storage.';
        page.drawText(text, { x: 72, y: 680 - line * 12, size: 10, font: body });
      }
    }
    return document.save({ useObjectStreams: false });
  }

  it('are read by every worker once the first has found no outline (pages 9–16 go to the second)', async () => {
    const words = [
      'Alpha',
      'Bravo',
      'Charlie',
      'Delta',
      'Echo',
      'Foxtrot',
      'Golf',
      'Hotel',
      'India',
      'Juliett',
    ];
    const more = ['Kilo', 'Lima', 'Mike', 'November', 'Oscar', 'Papa', 'Quebec', 'Romeo', 'Sierra', 'Tango'];
    const titles = [...words, ...more, 'Uniform', 'Victor', 'Whiskey', 'Yankee'].map(
      (word) => `${word} checks`,
    );
    const { blocks } = await pdfToBlocks(await boldTitledPages(titles), {
      name: 'bold-titles.pdf',
      workers: 2,
      minBytesForWorkers: 0,
    });
    const headings = blocks.filter((block) => block.kind === 'heading');
    expect(headings.map((block) => [block.text, block.pageStart])).toEqual(
      titles.map((title, index) => [title, index + 1]),
    );
  });
});

describe('reading font weights', () => {
  /** A stand-in for a pdf.js page: fonts appear in `commonObjs` once the operator list was built. */
  function pageWith(fonts: Record<string, unknown>) {
    const loaded = new Map<string, unknown>();
    const page: PageWithFonts & { operatorLists: number } = {
      operatorLists: 0,
      commonObjs: { has: (id) => loaded.has(id), get: (id) => loaded.get(id) },
      async getOperatorList() {
        page.operatorLists++;
        for (const [id, font] of Object.entries(fonts)) loaded.set(id, font);
      },
    };
    return page;
  }

  it('tells bold from regular by the font’s own name or flags, building an operator list once per new font', async () => {
    const weights = new FontWeights();
    const page = pageWith({
      f1: { name: 'ABCDEF+Times-Bold' },
      f2: { name: 'ABCDEF+Times-Roman' },
      f3: { name: 'NimbusRomNo9L-Medi' },
      f4: { name: 'CMBX10' },
      f5: { name: 'CMR10' },
      f6: { name: 'Custom', bold: true },
    });
    const first = await weights.of(page, ['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
    expect(Object.fromEntries(first)).toEqual({
      f1: true,
      f2: false,
      f3: true,
      f4: true,
      f5: false,
      f6: true,
    });
    await weights.of(page, ['f1', 'f2']);
    expect(page.operatorLists).toBe(1);
  });

  it('leaves a font pdf.js never hands over unknown, and does not ask for it again', async () => {
    const weights = new FontWeights();
    const page = pageWith({});
    expect((await weights.of(page, ['type3'])).size).toBe(0);
    await weights.of(page, ['type3']);
    expect(page.operatorLists).toBe(1);
  });
});

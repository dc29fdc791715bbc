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

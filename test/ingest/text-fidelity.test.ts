import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { composeAccents, joinLine } from '../../src/ingest/pdf/layout-blocks.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';

/**
 * One page laid out as the defects were seen: paragraphs broken by the typesetter after a hyphen,
 * TeX's spacing accents drawn before their letters, and a two-column table.
 */
async function page(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const pdfPage = document.addPage([612, 792]);
  let y = 720;
  const paragraph = (lines: string[]) => {
    for (const line of lines) {
      pdfPage.drawText(line, { x: 72, y, size: 10, font });
      y -= 12;
    }
    y -= 14;
  };
  paragraph([
    'Every DBMS has a driver, and each driver has its own specific settings that are DBMS-',
    'specific and kept apart. Copy the text with cut-and-',
    'paste. Install fonts-crosextra-',
    'carlito for the metric-compatible fonts, after the configu-',
    'ration of the printer; a wrong configuration is the usual cause.',
  ]);
  paragraph(['This manual was written by P´eter Juh´asz and reviewed by Fran¸cois M¨uller.']);
  for (const [task, count] of [
    ['task-gnome-desktop', 'I:179'],
    ['task-kde-desktop', 'I:52'],
  ]) {
    pdfPage.drawText(task as string, { x: 72, y, size: 10, font });
    pdfPage.drawText(count as string, { x: 260, y, size: 10, font });
    y -= 12;
  }
  return document.save({ useObjectStreams: false });
}

describe('text fidelity on a page built like the real defects', async () => {
  const { blocks } = await pdfToBlocks(await page(), { name: 'fidelity.pdf', workers: 1 });
  const text = blocks.map((block) => block.text).join('\n');

  it('keeps the hyphen of a real compound broken at a line end, drops it in a word split by syllable', () => {
    expect(text).toContain('settings that are DBMS-specific and kept apart');
    expect(text).toContain('with cut-and-paste.');
    expect(text).toContain('Install fonts-crosextra-carlito for');
    expect(text).toContain('after the configuration of the printer');
  });

  it('composes spacing accents with their letters', () => {
    expect(text).toContain('written by Péter Juhász and reviewed by François Müller.');
  });

  it('keeps a separator between table cells', () => {
    expect(text).toContain('task-gnome-desktop | I:179');
    expect(text).toContain('task-kde-desktop | I:52');
  });
});

describe('joinLine and composeAccents', () => {
  const vocabulary = new Set(['configuration', 'dbms', 'specific', 'the']);
  it('joins a split word that the document uses whole, keeps a compound of two words', () => {
    expect(joinLine('the configu-', 'ration', vocabulary)).toBe('the configuration');
    expect(joinLine('it is DBMS-', 'specific', vocabulary)).toBe('it is DBMS-specific');
    expect(joinLine('use cut-and-', 'paste', vocabulary)).toBe('use cut-and-paste');
    expect(joinLine('the end', 'of it', vocabulary)).toBe('the end of it');
  });

  it('leaves an accent that has no composed letter as it was', () => {
    expect(composeAccents('P´eter')).toBe('Péter');
    expect(composeAccents('x´ and ´ alone')).toBe('x´ and ´ alone');
    expect(composeAccents('no accents here')).toBe('no accents here');
  });
});

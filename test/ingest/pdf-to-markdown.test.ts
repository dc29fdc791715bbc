import { describe, expect, it } from 'vitest';
import { joinLine } from '../../src/ingest/pdf/layout-blocks.ts';
import { pdfToBlocks, pdfToMarkdown } from '../../src/ingest/pdf-to-markdown.ts';
import type { TextBlock } from '../../src/ingest/text-block.ts';
import { readFixture } from './fixtures.ts';

const find = (blocks: TextBlock[], text: string) => blocks.find((block) => block.text.includes(text));

describe('PDF → Markdown (manual.pdf: standard fonts, 3 pages)', async () => {
  const { pageCount, blocks } = await pdfToBlocks(readFixture('manual.pdf'), {
    name: 'manual.pdf',
    workers: 2,
  });

  it('counts the pages', () => {
    expect(pageCount).toBe(3);
  });

  it('detects headings and their levels from font size relative to the body text', () => {
    const headings = blocks
      .filter((block) => block.kind === 'heading')
      .map((block) => [block.level, block.text]);
    expect(headings).toEqual([
      [1, 'Widget Manual'],
      [2, 'Installation'],
      [3, 'Requirements'],
      [3, 'Command line'],
      [2, 'Troubleshooting'],
      [3, 'Error codes'],
      [2, 'Maintenance'],
      [2, 'Disposal'],
    ]);
  });

  it('joins a word hyphenated across a line break and reflows lines into one paragraph', () => {
    expect(find(blocks, 'configuration')?.text).toBe(
      'The widget needs careful configuration before first use. Mount the bracket on a solid wall and keep the air intake free.',
    );
  });

  it('keeps list items as items', () => {
    const items = blocks.filter((block) => block.kind === 'list').map((block) => block.text);
    expect(items).toEqual(['- A power supply of 12 volts', '- A mounting bracket rated for 20 kilograms']);
    expect(find(blocks, 'Both items ship')?.kind).toBe('paragraph');
  });

  it('keeps monospaced lines as a code block, with their indentation', () => {
    const code = blocks.find((block) => block.kind === 'code');
    expect(code?.text).toBe('widget install --prefix /opt/widget\n  --verbose --log-file install.log');
  });

  it('drops the running header and the page-number footer', () => {
    const text = blocks.map((block) => block.text).join('\n');
    expect(text).not.toContain('ACME Widget Manual - Version 2');
    expect(text).not.toMatch(/Page \d/);
  });

  it('keeps the page numbers of every block, across a page break inside a paragraph', () => {
    const split = find(blocks, 'When the installer finishes');
    expect(split?.text).toContain('the location of the journal');
    expect(split?.pageEnd).toBe((split?.pageStart ?? 0) + 1);
    expect(find(blocks, 'Widget Manual')?.pageStart).toBe(1);
    expect(find(blocks, 'Return a worn-out widget')?.pageStart).toBe(3);
    for (const [index, block] of blocks.entries()) {
      expect(block.pageStart).toBeLessThanOrEqual(block.pageEnd);
      if (index > 0) expect(block.pageStart).toBeGreaterThanOrEqual(blocks[index - 1]?.pageStart ?? 0);
    }
  });

  it('renders Markdown', async () => {
    const { markdown } = await pdfToMarkdown(readFixture('manual.pdf'), { name: 'manual.pdf', workers: 1 });
    expect(markdown).toContain('# Widget Manual\n\nThis manual explains');
    expect(markdown).toContain('### Requirements\n\n- A power supply of 12 volts');
    expect(markdown).toContain(
      '```\nwidget install --prefix /opt/widget\n  --verbose --log-file install.log\n```',
    );
  });
});

describe('PDF → Markdown on a real LaTeX PDF (asy-latex.pdf from the corpus: embedded fonts, code listings)', async () => {
  const { pageCount, blocks } = await pdfToBlocks(readFixture('asy-latex.pdf'), {
    name: 'asy-latex.pdf',
    workers: 1,
  });
  const headings = blocks.filter((block) => block.kind === 'heading');

  // The PDF has no outline, so the fonts' weights are read: the sections' bold fonts no longer share a
  // key with the title's regular one, and the one-off title style does not rank above them.
  it('finds the numbered sections at two levels, the title at the top', () => {
    expect(pageCount).toBe(11);
    expect(headings[0]).toMatchObject({ level: 1, text: 'The asymptote package', pageStart: 1 });
    const numbered = headings.filter((heading) => /^\d/.test(heading.text)).slice(0, 6);
    expect(numbered.map((heading) => [heading.level, heading.text, heading.pageStart])).toEqual([
      [1, '1 Introduction', 1],
      [1, '2 User syntax', 1],
      [2, '2.1 Package loading and options', 1],
      [2, '2.2 Commands for inserting Asymptote graphics', 2],
      [2, '2.3 Graphics options', 2],
      [1, '3 Processing the document', 2],
    ]);
  });

  it('reflows indented paragraphs, keeps code listings, drops page numbers', () => {
    expect(find(blocks, 'The inline option uses')).toMatchObject({ kind: 'paragraph', pageStart: 1 });
    expect(find(blocks, 'The inline option uses')?.text).toContain(
      'contained within. Otherwise the Asymptote graphics are self-contained',
    );
    expect(find(blocks, '\\begin{figure}')).toMatchObject({ kind: 'code', pageStart: 2 });
    expect(find(blocks, '\\begin{figure}')?.text.split('\n')).toContain('<ASYMPTOTE CODE>');
    expect(blocks.some((block) => /^\d{1,2}$/.test(block.text))).toBe(false);
  });
});

describe('PDF extraction in worker threads (long.pdf, 160 pages)', { timeout: 120_000 }, () => {
  it('gives the same blocks, in page order, with two workers as with one', async () => {
    const bytes = readFixture('long.pdf');
    const pagesSeen: number[] = [];
    const threaded = await pdfToBlocks(bytes, {
      name: 'long.pdf',
      workers: 2,
      minBytesForWorkers: 0,
      onPage: (done) => pagesSeen.push(done),
    });
    const single = await pdfToBlocks(bytes, { name: 'long.pdf', workers: 1 });
    expect(threaded.pageCount).toBe(160);
    expect(pagesSeen).toEqual(Array.from({ length: 160 }, (_, index) => index + 1));
    expect(threaded.blocks).toEqual(single.blocks);
    expect(threaded.blocks[0]).toMatchObject({ kind: 'heading', level: 1, text: 'Section 1', pageStart: 1 });
    expect(threaded.blocks.at(-1)?.pageEnd).toBe(160);
    expect(threaded.blocks.map((block) => block.text).join(' ')).not.toContain('Long Manual');
  });
});

describe('bad PDFs in worker threads', () => {
  it('reports encrypted and corrupt files from the workers with their codes', async () => {
    for (const [name, code] of [
      ['encrypted.pdf', 'PDF_ENCRYPTED'],
      ['corrupt.pdf', 'PDF_CORRUPT'],
    ] as const) {
      await expect(
        pdfToBlocks(readFixture(name), { name, workers: 2, minBytesForWorkers: 0 }),
      ).rejects.toMatchObject({ code });
    }
  });
});

describe('joinLine', () => {
  it('undoes hyphenation but keeps real compounds and plain line breaks', () => {
    expect(joinLine('careful config-', 'uration')).toBe('careful configuration');
    expect(joinLine('a non-', 'interactive shell')).toBe('a non-interactive shell');
    expect(joinLine('the end of a line', 'and the next')).toBe('the end of a line and the next');
    expect(joinLine('see section 3-', 'Four')).toBe('see section 3- Four');
  });
});

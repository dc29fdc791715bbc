import { PDFDocument, PDFHexString, PDFName, type PDFRef, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';

interface Entry {
  title: string;
  children?: Entry[];
}

/** Adds an outline (bookmarks) to the document, every entry pointing at page 1. */
function addOutline(document: PDFDocument, entries: Entry[]): void {
  const context = document.context;
  const page = document.getPage(0).ref;
  const build = (items: Entry[], parent: PDFRef): { first: PDFRef; last: PDFRef; count: number } => {
    const refs = items.map(() => context.nextRef());
    let count = items.length;
    items.forEach((item, index) => {
      const fields: Record<string, unknown> = {
        Title: PDFHexString.fromText(item.title),
        Parent: parent,
        Dest: [page, 'XYZ', null, null, null],
      };
      if (index > 0) fields.Prev = refs[index - 1];
      if (index < items.length - 1) fields.Next = refs[index + 1];
      if (item.children?.length) {
        const children = build(item.children, refs[index] as PDFRef);
        Object.assign(fields, { First: children.first, Last: children.last, Count: children.count });
        count += children.count;
      }
      context.assign(refs[index] as PDFRef, context.obj(fields as never));
    });
    return { first: refs[0] as PDFRef, last: refs.at(-1) as PDFRef, count };
  };
  const root = context.nextRef();
  const { first, last, count } = build(entries, root);
  context.assign(root, context.obj({ Type: 'Outlines', First: first, Last: last, Count: count }));
  document.catalog.set(PDFName.of('Outlines'), root);
}

/**
 * One page in one font at one size: the titles are set exactly like the body text, so only the
 * outline can tell them apart. They are the kinds a word-only rule missed: a hyphen, a slash and a
 * section number, a two-letter command name.
 */
async function manualWithOutline(withOutline: boolean): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([612, 792]);
  const lines = [
    '9 Set-up',
    'Install the tool before the first run. It needs a recent runtime and a writable home.',
    '9.2 name/other',
    'Each name may have another name after a slash, and both are looked up the same way.',
    'cd',
    'Changes the working directory to the one given, or to the home directory without one.',
    'Every later command then runs there until the directory is changed again by the user.',
  ];
  lines.forEach((line, index) => {
    page.drawText(line, { x: 72, y: 700 - index * 14 - (index % 2 === 0 ? 6 : 0), size: 10, font });
  });
  if (withOutline) {
    addOutline(document, [
      { title: 'Set-up', children: [{ title: 'name/other', children: [{ title: 'cd' }] }] },
    ]);
  }
  return document.save({ useObjectStreams: false });
}

describe('headings from the PDF outline', () => {
  it('takes titles with a hyphen, a slash, a number or two letters as headings at the outline levels', async () => {
    const { blocks } = await pdfToBlocks(await manualWithOutline(true), { name: 'tool.pdf', workers: 1 });
    expect(
      blocks.filter((block) => block.kind === 'heading').map((block) => [block.level, block.text]),
    ).toEqual([
      [1, '9 Set-up'],
      [2, '9.2 name/other'],
      [3, 'cd'],
    ]);
    const paragraphs = blocks.filter((block) => block.kind === 'paragraph').map((block) => block.text);
    expect(paragraphs[0]).toMatch(/^Install the tool/);
    expect(paragraphs.some((text) => text.startsWith('Changes the working directory'))).toBe(true);
  });

  it('matches a title whose hyphen the outline leaves out ("Nonregular" for the page\'s "Non-regular")', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const page = document.addPage([612, 792]);
    const lines = [
      '2.13. Non-regular files',
      'Sometimes it is useful to assign MIME types to other objects in the filesystem.',
    ];
    for (const [index, line] of lines.entries()) {
      page.drawText(line, { x: 72, y: 700 - index * 20, size: 10, font });
    }
    addOutline(document, [{ title: '2.13. Nonregular files' }]);
    const { blocks } = await pdfToBlocks(await document.save({ useObjectStreams: false }), {
      name: 'spec.pdf',
      workers: 1,
    });
    expect(
      blocks.filter((block) => block.kind === 'heading').map((block) => [block.level, block.text]),
    ).toEqual([[1, '2.13. Non-regular files']]);
  });

  it('finds none of them without an outline (same font and size as the text)', async () => {
    const { blocks } = await pdfToBlocks(await manualWithOutline(false), { name: 'tool.pdf', workers: 1 });
    expect(blocks.some((block) => block.kind === 'heading')).toBe(false);
  });
});

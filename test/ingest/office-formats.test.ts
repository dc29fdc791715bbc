/**
 * What each Office and spreadsheet format keeps, on files made in the test (test/support/make-office.ts):
 * sections, lists and tables (header repeated when split), slides and their notes, sheets and their row
 * numbers, hidden sheets, formulas' cached values, numbers and dates as the sheet shows them. Every
 * file goes through detection by content and the reader's worker thread, as an ingest does.
 */
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../src/ingest/chunk.ts';
import { detectFileKind } from '../../src/ingest/detect-file-kind.ts';
import { extractDocument } from '../../src/ingest/extract-document.ts';
import type { ExtractedDocument, TextBlock } from '../../src/ingest/text-block.ts';
import { docx, makeDocx, makeOpenDocument, makePptx, makeXlsx, odf } from '../support/make-office.ts';

async function read(name: string, bytes: Uint8Array): Promise<ExtractedDocument> {
  const kind = detectFileKind(name, bytes, { maxFileBytes: 50 * 1024 * 1024 });
  return extractDocument(bytes, { name, kind, workers: 1 });
}

const summary = (blocks: readonly TextBlock[]) =>
  blocks.map((block) => `${block.kind}${block.level ?? ''}@${block.pageStart}: ${block.text}`);

const allText = (blocks: readonly TextBlock[]) => blocks.map((block) => block.text).join('\n');

describe('DOCX', { timeout: 180_000 }, () => {
  it('keeps headings as sections, lists and tables; footnotes and comments stay out of the body', async () => {
    const bytes = makeDocx(
      docx.heading(1, 'Store guide') +
        docx.paragraph('Our shop opens at nine.', docx.footnoteReference(1)) +
        docx.heading(2, 'Returns') +
        docx.paragraph('Items can be returned within 30 days.', docx.commentReference(0)) +
        docx.bullet('Keep the receipt') +
        docx.bullet('Original packaging', 1) +
        docx.table([
          ['Item', 'Price'],
          ['Lamp', '12'],
        ]),
      { footnotes: { 1: 'Except on public holidays.' }, comments: { 0: 'Check this with legal.' } },
    );
    const { blocks, pageCount } = await read('guide.docx', bytes);
    expect(pageCount).toBe(1);
    expect(summary(blocks)).toEqual([
      'heading1@1: Store guide',
      'paragraph@1: Our shop opens at nine.',
      'heading2@1: Returns',
      'paragraph@1: Items can be returned within 30 days.',
      'list@1: - Keep the receipt\n  - Original packaging',
      'table@1: | Item | Price |\n| --- | --- |\n| Lamp | 12 |',
    ]);
    const text = allText(blocks);
    expect(text).not.toContain('public holidays');
    expect(text).not.toContain('legal');
    const { children } = chunkDocument(blocks, {
      documentId: 'd'.repeat(64),
      documentName: 'guide.docx',
      scope: 's',
    });
    expect(children.find((child) => child.text.includes('30 days'))?.sectionPath).toEqual([
      'Store guide',
      'Returns',
    ]);
  });

  it('repeats the header row in every part of a long table, also in the chunks made from it', async () => {
    const rows = [['Cost centre', 'Owner', 'Budget']];
    for (let row = 1; row <= 60; row++)
      rows.push([`CC-${4400 + row}`, `Owner number ${row}`, `${row * 1000}`]);
    const { blocks } = await read('budget.docx', makeDocx(docx.heading(1, 'Budgets') + docx.table(rows)));
    const tables = blocks.filter((block) => block.kind === 'table');
    expect(tables.length).toBeGreaterThan(2);
    for (const table of tables) {
      expect(table.text.startsWith('| Cost centre | Owner | Budget |\n| --- | --- | --- |\n')).toBe(true);
      expect(table.text.length).toBeLessThanOrEqual(700);
    }
    // Every row is kept once, in order.
    const bodyRows = tables.flatMap((table) => table.text.split('\n').slice(2));
    expect(bodyRows).toEqual(rows.slice(1).map((row) => `| ${row.join(' | ')} |`));
    const { children } = chunkDocument(blocks, {
      documentId: 'b'.repeat(64),
      documentName: 'budget.docx',
      scope: 's',
    });
    for (const child of children.filter((child) => child.text.includes('| CC-'))) {
      expect(child.text).toContain('| Cost centre | Owner | Budget |');
    }
  });
});

describe('DOCX images', { timeout: 180_000 }, () => {
  it('leaves pictures out (their bytes are never read) and keeps the text around them', async () => {
    const bytes = makeDocx(
      docx.paragraph('Before the chart.') + docx.image('Sales chart') + docx.paragraph('After it.'),
      {
        image: true,
      },
    );
    const { blocks } = await read('report.docx', bytes);
    expect(summary(blocks)).toEqual(['paragraph@1: Before the chart.', 'paragraph@1: After it.']);
  });
});

describe('PPTX', { timeout: 180_000 }, () => {
  it('makes one section per slide with its title, text, table and speaker notes, at its slide number', async () => {
    const bytes = makePptx([
      {
        title: 'Launch plan',
        bullets: ['Ship in May', 'Hire two engineers'],
        notes: 'Thank the design team.',
      },
      {
        title: 'Costs',
        table: [
          ['Item', 'Cost'],
          ['Ads', '4,000'],
        ],
        textBox: 'All figures in euros',
      },
      { bullets: ['A slide without a title'] },
    ]);
    const { blocks, pageCount } = await read('launch-plan.pptx', bytes);
    expect(pageCount).toBe(3);
    expect(summary(blocks)).toEqual([
      'heading1@1: Slide 1: Launch plan',
      'list@1: - Ship in May\n- Hire two engineers',
      'paragraph@1: Speaker notes: Thank the design team.',
      'heading1@2: Slide 2: Costs',
      'paragraph@2: All figures in euros',
      'table@2: | Item | Cost |\n| --- | --- |\n| Ads | 4,000 |',
      'heading1@3: Slide 3',
      'list@3: - A slide without a title',
    ]);
  });
});

describe('XLSX', { timeout: 180_000 }, () => {
  it('reads visible sheets only, rows numbered as shown, cached formula values, numbers and dates as displayed', async () => {
    const bytes = makeXlsx([
      {
        name: '2026',
        rows: {
          1: ['Cost centre', 'Amount', 'Booked', 'Share', 'Total', 'Note'],
          3: [
            { number: 4410 },
            { number: 12300, style: 1 },
            { number: 46112, style: 2 },
            { number: 0.125, style: 3 },
            { formula: 'B3*2', cached: 24600, style: 1 },
            { formula: 'IF(B3>1,"big","small")', cached: 'big' },
          ],
          4: [{ number: 4420 }, { number: 800.5 }, { number: 46113, style: 4 }],
        },
      },
      {
        name: 'Payroll',
        state: 'hidden',
        rows: [
          ['Name', 'Salary'],
          ['Alice', { number: 99000 }],
        ],
      },
      { name: 'Old', state: 'veryHidden', rows: [['Secret'], ['very hidden']] },
      {
        name: 'Summary',
        rows: [
          ['Quarter', 'Result'],
          ['Q1', { number: 1.5 }],
        ],
      },
    ]);
    const { blocks, pageCount } = await read('costs.xlsx', bytes);
    expect(summary(blocks)).toEqual([
      'heading1@1: 2026',
      'paragraph@1: Columns: Cost centre, Amount, Booked, Share, Total, Note',
      'paragraph@3: Cost centre: 4410, Amount: 12,300, Booked: 2026-03-31, Share: 12.5%, Total: 24,600, Note: big',
      'paragraph@4: Cost centre: 4420, Amount: 800.5, Booked: 1 Apr 2026',
      'heading1@1: Summary',
      'paragraph@1: Columns: Quarter, Result',
      'paragraph@2: Quarter: Q1, Result: 1.5',
    ]);
    expect(pageCount).toBe(4);
    expect(allText(blocks)).not.toMatch(/Payroll|Alice|99000|very hidden/);
  });

  it('shows dates of a 1904-based workbook as the sheet does', async () => {
    const bytes = makeXlsx([{ name: 'S', rows: [['Day'], [{ number: 46112 - 1462, style: 2 }]] }], {
      date1904: true,
    });
    const { blocks } = await read('mac.xlsx', bytes);
    expect(blocks.at(-1)?.text).toBe('Day: 2026-03-31');
  });
});

describe('OpenDocument', { timeout: 180_000 }, () => {
  it('ODT: outline levels become sections; lists and tables kept; notes and comments left out', async () => {
    const bytes = makeOpenDocument(
      'text',
      odf.heading(1, 'Handbook') +
        odf.paragraph(
          'Welcome aboard.',
          '<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body><text:p>A footnote.</text:p></text:note-body></text:note><office:annotation><text:p>A comment.</text:p></office:annotation>',
        ) +
        odf.heading(2, 'Leave') +
        odf.list(['Ask your lead', 'Book it in the tool']) +
        odf.table([
          ['Type', 'Days'],
          ['Holiday', '25'],
        ]),
    );
    const { blocks } = await read('handbook.odt', bytes);
    expect(summary(blocks)).toEqual([
      'heading1@1: Handbook',
      'paragraph@1: Welcome aboard.',
      'heading2@1: Leave',
      'list@1: - Ask your lead\n- Book it in the tool',
      'table@1: | Type | Days |\n| --- | --- |\n| Holiday | 25 |',
    ]);
  });

  it('ODP: one section per slide with its notes, page numbers left out', async () => {
    const bytes = makeOpenDocument(
      'presentation',
      odf.slide('Welcome', odf.paragraph('Hello everyone'), 'Smile.') +
        odf.slide('Agenda', odf.list(['Numbers', 'Questions'])),
    );
    const { blocks, pageCount } = await read('talk.odp', bytes);
    expect(pageCount).toBe(2);
    expect(summary(blocks)).toEqual([
      'heading1@1: Slide 1: Welcome',
      'paragraph@1: Hello everyone',
      'paragraph@1: Speaker notes: Smile.',
      'heading1@2: Slide 2: Agenda',
      'list@2: - Numbers\n- Questions',
    ]);
  });

  it('ODS: displayed texts, repeated empty rows counted in row numbers, hidden sheets skipped', async () => {
    const bytes = makeOpenDocument(
      'spreadsheet',
      `<table:table table:name="Budget">${odf.sheetRow(['Cost centre', 'Amount'])}${odf.sheetRow([], 2)}` +
        `${odf.sheetRow(['4410', '12,300.00'])}${odf.sheetRow([], 1_048_570)}</table:table>` +
        `<table:table table:name="Hidden" table:style-name="ta2">${odf.sheetRow(['secret'])}</table:table>`,
      {
        automaticStyles:
          '<style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>',
      },
    );
    const { blocks } = await read('budget.ods', bytes);
    expect(summary(blocks)).toEqual([
      'heading1@1: Budget',
      'paragraph@1: Columns: Cost centre, Amount',
      'paragraph@4: Cost centre: 4410, Amount: 12,300.00',
    ]);
  });
});

describe('CSV and TSV', { timeout: 180_000 }, () => {
  it('numbers rows as the file shows them (first line = row 1, blank lines counted) and keeps quoted commas', async () => {
    const csv = 'Cost centre,Amount,Note\n4410,"12,300","multi\nline"\n\n4420,800,\n';
    const { blocks, pageCount } = await read('costs.csv', new TextEncoder().encode(csv));
    expect(summary(blocks)).toEqual([
      'paragraph@1: Columns: Cost centre, Amount, Note',
      'paragraph@2: Cost centre: 4410, Amount: 12,300, Note: multi line',
      'paragraph@4: Cost centre: 4420, Amount: 800',
    ]);
    expect(pageCount).toBe(4);
  });

  it('reads TSV by tabs and a semicolon CSV by semicolons', async () => {
    const tsv = await read('people.tsv', new TextEncoder().encode('Name\tTeam\nAda\tCore, infra\n'));
    expect(tsv.blocks.at(-1)?.text).toBe('Name: Ada, Team: Core, infra');
    const semicolons = await read('euro.csv', new TextEncoder().encode('Item;Price\nLamp;12,50\n'));
    expect(semicolons.blocks.at(-1)?.text).toBe('Item: Lamp, Price: 12,50');
  });
});

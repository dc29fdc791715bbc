/**
 * `ragent ingest` of every Office and spreadsheet format (a directory of files made in the test), then
 * `ragent search --json`: questions worded unlike the documents (BM25 with stemming, no embeddings)
 * find the row, slide or section, and each hit carries the location in its document's own terms.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docx, makeDocx, makeOpenDocument, makePptx, makeXlsx, odf } from '../support/make-office.ts';
import { runCli } from '../support/run-cli.ts';

describe('ragent ingest and search of Office files and spreadsheets', { timeout: 180_000 }, () => {
  let directory: string;
  let files: string;
  let environment: Record<string, string>;
  let ingestOutput = '';
  let ingestCode = -1;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-office-cli-'));
    files = path.join(directory, 'files');
    environment = {
      RAGENT_DATA_DIR: path.join(directory, 'data'),
      RAGENT_EMBEDDINGS: 'none',
      LOG_LEVEL: 'silent',
    };
    const ledger: (string | { number: number; style?: number })[][] = [['Cost centre', 'Owner', 'Amount']];
    for (let row = 2; row <= 40; row++) {
      ledger.push([`CC-${4400 + row}`, `Team ${row}`, { number: row * 1000 + 300, style: 1 }]);
    }
    ledger[11] = ['CC-4410', 'Facilities and cleaning', { number: 12300, style: 1 }];
    const parts: Record<string, Uint8Array> = {
      'costs.xlsx': makeXlsx([
        { name: 'Notes', rows: [['Topic'], ['Budget rules are in the handbook']] },
        { name: '2026', rows: ledger },
      ]),
      'launch-plan.pptx': makePptx([
        { title: 'Launch plan', bullets: ['Goals for the year'] },
        { title: 'Timeline', bullets: ['We ship the mobile app in May'], notes: 'Mention the beta testers.' },
      ]),
      'guide.docx': makeDocx(
        docx.heading(1, 'Store guide') +
          docx.paragraph('Opening hours are nine to five.') +
          docx.heading(2, 'Returns') +
          docx.paragraph('Customers returned goods within 30 days get a full refund.'),
      ),
      'handbook.odt': makeOpenDocument(
        'text',
        odf.heading(1, 'Handbook') + odf.paragraph('Parking permits are issued by reception.'),
      ),
      'talk.odp': makeOpenDocument(
        'presentation',
        odf.slide('Intro', odf.paragraph('Hello')) +
          odf.slide('Hiring', odf.paragraph('We are hiring welders')),
      ),
      'budget.ods': makeOpenDocument(
        'spreadsheet',
        `<table:table table:name="Travel">${odf.sheetRow(['Trip', 'Cost'])}${odf.sheetRow(['Lisbon conference', '1,850.00'])}</table:table>`,
      ),
      'vendors.csv': new TextEncoder().encode(
        'Vendor,Service\nAcme,Printer toner\nGlobex,Coffee beans delivery\n',
      ),
      'people.tsv': new TextEncoder().encode('Name\tRole\nGrace\tCompiler engineer\n'),
    };
    const { mkdirSync } = await import('node:fs');
    mkdirSync(files);
    for (const [name, bytes] of Object.entries(parts)) writeFileSync(path.join(files, name), bytes);
    const run = await runCli(['ingest', files], environment);
    ingestOutput = run.text;
    ingestCode = run.code;
  }, 600_000);

  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  const search = async (query: string) => {
    const run = await runCli(['search', query, '--json', '--k', '3'], environment);
    expect(run.code).toBe(0);
    return JSON.parse(run.text) as Array<{ file: string; location: Record<string, unknown>; text: string }>;
  };

  it('ingests every format from a directory, counting slides and rows', () => {
    expect(ingestCode).toBe(0);
    for (const name of [
      'costs.xlsx',
      'launch-plan.pptx',
      'guide.docx',
      'handbook.odt',
      'talk.odp',
      'budget.ods',
      'vendors.csv',
      'people.tsv',
    ]) {
      expect(ingestOutput).toMatch(
        new RegExp(`^✓ ${name.replace('.', '\\.')}: ingested [0-9a-f]{12} · `, 'm'),
      );
    }
    expect(ingestOutput).toMatch(/✓ launch-plan\.pptx: ingested [0-9a-f]{12} · 2 slides,/);
    expect(ingestOutput).toMatch(/✓ costs\.xlsx: ingested [0-9a-f]{12} · 40 rows,/);
    expect(ingestOutput).toContain('8 ingested or up to date, 0 failed.');
  });

  it('finds a spreadsheet row by what its columns mean, cited by sheet and rows', async () => {
    const [hit] = await search('how much did facilities cleaning cost centre 4410 spend');
    expect(hit?.file).toBe('costs.xlsx');
    expect(hit?.text).toContain('Cost centre: CC-4410, Owner: Facilities and cleaning, Amount: 12,300');
    const location = hit?.location as { sheet: string; rows: [number, number] };
    expect(location.sheet).toBe('2026');
    expect(location.rows[0]).toBeLessThanOrEqual(12);
    expect(location.rows[1]).toBeGreaterThanOrEqual(12);
  });

  it('finds a slide, cited by its number', async () => {
    const [hit] = await search('when are we shipping the app');
    expect(hit).toMatchObject({ file: 'launch-plan.pptx', location: { slide: 2 } });
  });

  it('finds a section of a document, cited by its section path', async () => {
    const [hit] = await search('refund when returning something');
    expect(hit).toMatchObject({ file: 'guide.docx', location: { section: 'Store guide › Returns' } });
    const [odt] = await search('who issues the parking permit');
    expect(odt).toMatchObject({ file: 'handbook.odt', location: { section: 'Handbook' } });
  });

  it('cites OpenDocument slides and sheets, and CSV/TSV rows without a sheet', async () => {
    expect((await search('hiring a welder'))[0]).toMatchObject({ file: 'talk.odp', location: { slide: 2 } });
    expect((await search('Lisbon conference trip'))[0]).toMatchObject({
      file: 'budget.ods',
      location: { sheet: 'Travel', rows: [1, 2] },
    });
    expect((await search('who delivers the coffee'))[0]).toMatchObject({
      file: 'vendors.csv',
      location: { rows: [1, 3] },
    });
    expect((await search('compiler engineers'))[0]).toMatchObject({
      file: 'people.tsv',
      location: { rows: [1, 2] },
    });
  });
});

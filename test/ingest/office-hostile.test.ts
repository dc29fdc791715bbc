/**
 * Hostile Office files and spreadsheets, made in the test: each is refused with its own code and a
 * message naming the limit and its variable, before anything large is inflated or parsed.
 */
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../src/ingest/detect-file-kind.ts';
import { extractDocument } from '../../src/ingest/extract-document.ts';
import { defaultIngestLimits, type IngestLimits } from '../../src/ingest/ingest-limits.ts';
import {
  docx,
  makeDocx,
  makeOpenDocument,
  makePptx,
  makeXlsx,
  odf,
  zipParts,
} from '../support/make-office.ts';

async function refusal(name: string, bytes: Uint8Array, limits: Partial<IngestLimits> = {}) {
  try {
    const kind = detectFileKind(name, bytes, { maxFileBytes: 50 * 1024 * 1024 });
    await extractDocument(bytes, { name, kind, workers: 1, limits: { ...defaultIngestLimits, ...limits } });
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${name} was read`);
}

/** Sets the declared uncompressed size of one entry, in its local header and its central directory record. */
function declareSize(zip: Uint8Array, entry: string, size: number): Uint8Array {
  const bytes = new Uint8Array(zip);
  const view = new DataView(bytes.buffer);
  const name = new TextEncoder().encode(entry);
  const named = (offset: number) => name.every((byte, index) => bytes[offset + index] === byte);
  for (let offset = 0; offset < bytes.length - 46; offset++) {
    const signature = view.getUint32(offset, true);
    if (signature === 0x04034b50 && named(offset + 30)) view.setUint32(offset + 22, size, true);
    if (signature === 0x02014b50 && named(offset + 46)) view.setUint32(offset + 24, size, true);
  }
  return bytes;
}

describe('zip bombs', { timeout: 180_000 }, () => {
  it('refuses a file whose entries declare more than RAGENT_MAX_UNZIPPED_MB, before inflating any', async () => {
    const bomb = makeDocx(docx.paragraph('hello'), { extra: { 'word/padding.xml': '' } });
    // 64 MB of zeros deflate to about 64 kB.
    const padded = zipParts({
      '[Content_Types].xml': '<Types/>',
      'word/document.xml': '<w:document/>',
      'word/zeros.bin': new Uint8Array(64 * 1024 * 1024),
    });
    expect(padded.byteLength).toBeLessThan(1024 * 1024);
    const { code, message } = await refusal('bomb.docx', padded, { maxUnzippedBytes: 16 * 1024 * 1024 });
    expect(code).toBe('ZIP_TOO_LARGE');
    expect(message).toBe(
      'bomb.docx would unpack to 64 MB, over the 16 MB limit; nothing was added. Check the file (it may be ' +
        'built to exhaust memory), or raise RAGENT_MAX_UNZIPPED_MB.',
    );
    // Declared sizes are what is checked: a directory claiming 4 GB is refused at the default limit.
    const claims = declareSize(bomb, 'word/padding.xml', 0xffff_fff0);
    expect(await refusal('claims.docx', claims)).toMatchObject({ code: 'ZIP_TOO_LARGE' });
  });

  it('never inflates an entry past the size it declares (a lying entry is cut, and the file refused as damaged)', async () => {
    // The sheet really inflates to about a MB of rows but declares 200 bytes: it is cut at 200 bytes.
    const rows = Array.from({ length: 20_000 }, (_, index) => [`row ${index}`, { number: index }] as const);
    const honest = makeXlsx([{ name: 'S', rows: rows.map((row) => [...row]) }]);
    const lying = declareSize(honest, 'xl/worksheets/sheet1.xml', 200);
    const { code, message } = await refusal('lying.xlsx', lying);
    expect(code).toBe('OFFICE_CORRUPT');
    expect(message).toContain('lying.xlsx could not be read');
  });

  it('refuses more entries than RAGENT_MAX_ZIP_ENTRIES', async () => {
    const parts: Record<string, string> = {};
    for (let index = 0; index < 10_001; index++) parts[`ppt/media/e${index}.txt`] = 'x';
    const crowded = zipParts({ ...parts, '[Content_Types].xml': '<Types/>', 'ppt/presentation.xml': '<p/>' });
    const { code, message } = await refusal('crowded.pptx', crowded);
    expect(code).toBe('ZIP_TOO_MANY_ENTRIES');
    expect(message).toBe(
      'crowded.pptx holds 10,003 files inside, over the limit of 10,000; nothing was added. Check the file, ' +
        'or raise RAGENT_MAX_ZIP_ENTRIES.',
    );
  });
});

describe('XML attacks', { timeout: 180_000 }, () => {
  const laughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';
  const external = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>';

  it('refuses a DOCTYPE (entity expansion, external entities) in every format, naming the part', async () => {
    const document = `${external}<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>`;
    const word = makeDocx('', { extra: { 'word/document.xml': document } });
    const { code, message } = await refusal('xxe.docx', word);
    expect(code).toBe('XML_DOCTYPE_REFUSED');
    expect(message).toContain(
      'xxe.docx was refused: its word/document.xml declares a document type (DOCTYPE)',
    );

    const sheet = makeXlsx([{ name: 'S', rows: [['a']] }]);
    const strings = zipParts({
      ...Object.fromEntries(
        Object.entries(unzipAll(sheet)).filter(([name]) => name !== 'xl/sharedStrings.xml'),
      ),
      'xl/sharedStrings.xml': `${laughs}<sst><si><t>&lol3;</t></si></sst>`,
    });
    expect(await refusal('laughs.xlsx', strings)).toMatchObject({ code: 'XML_DOCTYPE_REFUSED' });

    const worksheet = zipParts({
      ...unzipAll(sheet),
      'xl/worksheets/sheet1.xml': `${laughs}<worksheet><sheetData><row r="1"><c t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>`,
    });
    expect(await refusal('laughs-sheet.xlsx', worksheet)).toMatchObject({ code: 'XML_DOCTYPE_REFUSED' });

    const deck = zipParts({
      ...unzipAll(makePptx([{ title: 'A' }])),
      'ppt/slides/slide1.xml': `${external}<p:sld xmlns:p="p"/>`,
    });
    expect(await refusal('xxe.pptx', deck)).toMatchObject({ code: 'XML_DOCTYPE_REFUSED' });

    const text = zipParts(
      { ...unzipAll(makeOpenDocument('text', '')), 'content.xml': `${laughs}<office:document-content/>` },
      { store: ['mimetype'] },
    );
    expect(await refusal('laughs.odt', text)).toMatchObject({ code: 'XML_DOCTYPE_REFUSED' });
  });
});

describe('protected and oversized files', { timeout: 180_000 }, () => {
  it('refuses a password-protected OpenDocument file with OFFICE_ENCRYPTED', async () => {
    const locked = makeOpenDocument('spreadsheet', '', { encrypted: true });
    const { code, message } = await refusal('locked.ods', locked);
    expect(code).toBe('OFFICE_ENCRYPTED');
    expect(message).toContain('locked.ods is protected with a password');
  });

  it('refuses a sheet with more rows than RAGENT_MAX_ROWS, naming the sheet, in every spreadsheet format', async () => {
    const csvRows = ['Name,Amount', ...Array.from({ length: 150 }, (_, index) => `n${index},${index}`)].join(
      '\n',
    );
    const csv = await refusal('long.csv', new TextEncoder().encode(csvRows), { maxRows: 100 });
    expect(csv).toEqual({
      code: 'SHEET_TOO_MANY_ROWS',
      message:
        'long.csv has more than 100 rows in the file, the limit; nothing was added. Split the sheet, or raise RAGENT_MAX_ROWS.',
    });
    const xlsx = makeXlsx([
      { name: 'Short', rows: [['a'], ['b']] },
      { name: 'Ledger', rows: Array.from({ length: 150 }, (_, index) => [`entry ${index}`]) },
    ]);
    expect((await refusal('ledger.xlsx', xlsx, { maxRows: 100 })).message).toContain(
      'ledger.xlsx has more than 100 rows in sheet Ledger, the limit',
    );
    // One filled row "repeated" a million times is refused by the limit, not expanded.
    const repeated = makeOpenDocument(
      'spreadsheet',
      `<table:table table:name="Copies">${odf.sheetRow(['Header'])}${odf.sheetRow(['same'], 1_000_000)}</table:table>`,
    );
    expect(await refusal('copies.ods', repeated, { maxRows: 1000 })).toMatchObject({
      code: 'SHEET_TOO_MANY_ROWS',
    });
  });

  it('stops a reader that runs past RAGENT_INGEST_TIMEOUT_S', async () => {
    const sheet = makeXlsx([{ name: 'S', rows: [['a'], ['b']] }]);
    const { code, message } = await refusal('slow.xlsx', sheet, { timeoutMs: 1 });
    expect(code).toBe('INGEST_TIMEOUT');
    expect(message).toContain('RAGENT_INGEST_TIMEOUT_S');
  });

  it('tells a .docx cut short (no zip directory) to save or download it again', async () => {
    const whole = makeDocx(docx.paragraph('hello'));
    const { code, message } = await refusal('cut.docx', whole.subarray(0, whole.byteLength / 2));
    expect(code).toBe('FILE_UNSUPPORTED');
    expect(message).toContain('cut.docx is named .docx but is not a Word document (DOCX)');
    expect(message).toContain('Save or download it again as .docx.');
  });
});

function unzipAll(zip: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(zip);
}

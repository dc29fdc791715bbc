import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../src/ingest/detect-file-kind.ts';
import { makeDocx, makeOpenDocument, makePptx, makeXlsx, odf, zipParts } from '../support/make-office.ts';

const limits = { maxFileBytes: 1024 * 1024 };
const encode = (text: string) => new TextEncoder().encode(text);

function refusal(name: string, bytes: Uint8Array): { code: string; message: string } {
  try {
    detectFileKind(name, bytes, limits);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`${name} was accepted`);
}

describe('detectFileKind', () => {
  it('tells a .pdf holding plain text that its name claims PDF, and how to ingest it', () => {
    const { code, message } = refusal('notreally.pdf', encode('These are meeting notes, not a PDF.\n'));
    expect(code).toBe('FILE_UNSUPPORTED');
    expect(message).toBe(
      'notreally.pdf is named .pdf but is not a PDF: its content is plain text. Rename it to .txt (or .md) ' +
        'to ingest it as text, or export the document as a real PDF.',
    );
  });

  it('tells a binary .pdf that it is not a PDF; other names keep the general reason', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0xff, 0xfe]);
    expect(refusal('archive.pdf', zip).message).toContain(
      'is named .pdf but is not a PDF (it does not start',
    );
    const program = new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]);
    expect(refusal('program.exe', program).message).toContain('is not a file type ragent reads. Supported:');
    expect(refusal('archive.zip', zip).message).toContain('is not a file type ragent reads. Supported:');
  });

  it('knows PNG, JPEG and TIFF by their bytes, and tells an image named as a document what it is', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
    const tiffLittle = new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]);
    const tiffBig = new Uint8Array([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]);
    expect(detectFileKind('scan.png', png, limits)).toBe('image');
    expect(detectFileKind('IMG_0042', jpeg, limits)).toBe('image');
    expect(detectFileKind('fax.tif', tiffLittle, limits)).toBe('image');
    expect(detectFileKind('fax.tiff', tiffBig, limits)).toBe('image');
    expect(refusal('picture.pdf', png)).toEqual({
      code: 'FILE_UNSUPPORTED',
      message:
        'picture.pdf is named .pdf but is a PNG image. Rename it to .png to ingest it as an image (its text ' +
        'is read with OCR).',
    });
    expect(refusal('photo.txt', jpeg).message).toContain('is named .txt but is a JPEG image');
  });

  it('goes by the bytes: a PDF under any name, text only under a text name', () => {
    expect(detectFileKind('report.bin', encode('%PDF-1.7\n'), limits)).toBe('pdf');
    expect(detectFileKind('notes.txt', encode('notes'), limits)).toBe('text');
    expect(detectFileKind('notes.md', encode('# notes'), limits)).toBe('markdown');
  });

  it('tells Office formats apart by their zip parts, whatever they are called', () => {
    const docx = makeDocx('<w:p/>');
    expect(detectFileKind('guide.docx', docx, limits)).toBe('docx');
    expect(detectFileKind('guide', docx, limits)).toBe('docx');
    expect(detectFileKind('deck.pptx', makePptx([{ title: 'A' }]), limits)).toBe('pptx');
    expect(detectFileKind('costs.xlsx', makeXlsx([{ name: 'S', rows: [['a']] }]), limits)).toBe('xlsx');
    expect(detectFileKind('notes.odt', makeOpenDocument('text', odf.paragraph('x')), limits)).toBe('odt');
    expect(detectFileKind('talk.odp', makeOpenDocument('presentation', ''), limits)).toBe('odp');
    expect(detectFileKind('sheet.ods', makeOpenDocument('spreadsheet', ''), limits)).toBe('ods');
    expect(detectFileKind('data.csv', encode('a,b\n1,2\n'), limits)).toBe('csv');
    expect(detectFileKind('data.tsv', encode('a\tb\n1\t2\n'), limits)).toBe('tsv');
  });

  it('tells a file whose name claims one type what it really is', () => {
    const pdf = refusal('report.docx', encode('%PDF-1.7\n'));
    expect(pdf.code).toBe('FILE_UNSUPPORTED');
    expect(pdf.message).toBe(
      'report.docx is named .docx but is a PDF, not a Word document (DOCX). Rename it to .pdf to ingest it.',
    );
    expect(refusal('report.docx', encode('Meeting notes, typed.\n')).message).toBe(
      'report.docx is named .docx but is not a Word document (DOCX): its content is plain text. Rename it to ' +
        '.txt (or .md) to ingest it as text, or export the document as a real .docx file.',
    );
    expect(refusal('costs.docx', makeXlsx([{ name: 'S', rows: [['a']] }])).message).toBe(
      'costs.docx is named .docx but is an Excel workbook (XLSX), not a Word document (DOCX). Rename it to .xlsx to ingest it.',
    );
    expect(refusal('archive.xlsx', zipParts({ 'readme.txt': 'hello' })).message).toContain(
      'archive.xlsx is named .xlsx but is not an Excel workbook (XLSX) (it is not a zip with the parts',
    );
    expect(refusal('slides.pdf', makePptx([{ title: 'A' }])).message).toBe(
      'slides.pdf is named .pdf but is a PowerPoint deck (PPTX), not a PDF. Rename it to .pptx to ingest it.',
    );
  });

  it('refuses a password-protected Office file with OFFICE_ENCRYPTED, and an old binary one as unsupported', () => {
    const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    const stream = (name: string) => [...Buffer.from(name, 'utf16le')];
    const encrypted = new Uint8Array([...ole, ...new Array(504).fill(0), ...stream('EncryptionInfo'), 0, 0]);
    const { code, message } = refusal('budget.xlsx', encrypted);
    expect(code).toBe('OFFICE_ENCRYPTED');
    expect(message).toContain('budget.xlsx is protected with a password');
    const legacy = new Uint8Array([...ole, ...new Array(504).fill(0), ...stream('WordDocument'), 0, 0]);
    expect(refusal('old.doc', legacy)).toMatchObject({ code: 'FILE_UNSUPPORTED' });
    expect(refusal('old.doc', legacy).message).toContain('old binary Office file');
  });
  it('knows HTML, an e-mail and a mailbox by their first bytes, whatever their names', () => {
    expect(
      detectFileKind(
        'page.bin',
        encode('\uFEFF<!-- saved -->\n<!DOCTYPE html><html><p>x</p></html>'),
        limits,
      ),
    ).toBe('html');
    expect(detectFileKind('page', encode('<html lang="en"><body>x</body></html>'), limits)).toBe('html');
    const mail =
      'From: Dana <dana@example.com>\r\nSubject: Hi\r\n\tfolded\r\nDate: Tue, 01 Dec 2026 10:00:00 +0000\r\n\r\nBody';
    expect(detectFileKind('message.txt', encode(mail), limits)).toBe('email');
    expect(
      detectFileKind('archive', encode(`From dana@example.com Tue Dec  1 10:00:00 2026\n${mail}`), limits),
    ).toBe('mbox');
    // Text with a line or two that look like headers is still text: a mail names a sender and a date or id.
    expect(detectFileKind('notes.md', encode('Title: Pumps\nAuthor: Dana\n\n# Pumps'), limits)).toBe(
      'markdown',
    );
    expect(detectFileKind('notes.txt', encode('From: the desk of Dana\nThe pumps are fine.'), limits)).toBe(
      'text',
    );
  });
});

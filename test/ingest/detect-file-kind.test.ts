import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../src/ingest/detect-file-kind.ts';

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
    expect(refusal('archive.zip', zip).message).toContain('is not a PDF, Markdown, text or image file');
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
});

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
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    expect(refusal('picture.pdf', png).message).toContain(
      'is named .pdf but is not a PDF (it does not start',
    );
    expect(refusal('picture.png', png).message).toContain('is not a PDF, Markdown or text file');
  });

  it('goes by the bytes: a PDF under any name, text only under a text name', () => {
    expect(detectFileKind('report.bin', encode('%PDF-1.7\n'), limits)).toBe('pdf');
    expect(detectFileKind('notes.txt', encode('notes'), limits)).toBe('text');
    expect(detectFileKind('notes.md', encode('# notes'), limits)).toBe('markdown');
  });
});

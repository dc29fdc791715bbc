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
    expect(refusal('picture.png', png).message).toContain(
      'is not a PDF, Markdown, text, HTML or e-mail file',
    );
  });

  it('goes by the bytes: a PDF under any name, text only under a text name', () => {
    expect(detectFileKind('report.bin', encode('%PDF-1.7\n'), limits)).toBe('pdf');
    expect(detectFileKind('notes.txt', encode('notes'), limits)).toBe('text');
    expect(detectFileKind('notes.md', encode('# notes'), limits)).toBe('markdown');
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

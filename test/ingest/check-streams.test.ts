import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { findOversizedStream } from '../../src/ingest/pdf/check-streams.ts';

/** A minimal PDF-like byte string with one stream object per entry (only the stream syntax matters here). */
function pdfWith(streams: Array<{ dictionary: string; data: Uint8Array }>): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  streams.forEach(({ dictionary, data }, index) => {
    parts.push(
      Buffer.from(`${index + 1} 0 obj\n<< ${dictionary} /Length ${data.byteLength} >>\nstream\n`, 'latin1'),
    );
    parts.push(Buffer.from(data));
    parts.push(Buffer.from('\nendstream\nendobj\n'));
  });
  return new Uint8Array(Buffer.concat(parts));
}

const inflatingTo = (megabytes: number) => deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x41));

describe('findOversizedStream', () => {
  it('finds a FlateDecode stream that inflates past the cap, without inflating it whole', () => {
    const bytes = pdfWith([
      { dictionary: '/Filter /FlateDecode', data: inflatingTo(1) },
      { dictionary: '/Filter /FlateDecode', data: inflatingTo(8) },
    ]);
    const offset = findOversizedStream(bytes, 4 * 1024 * 1024);
    expect(offset).toBeGreaterThan(0);
    expect(Buffer.from(bytes).toString('latin1', 0, offset)).toContain('2 0 obj');
    expect(findOversizedStream(bytes, 16 * 1024 * 1024)).toBeUndefined();
  });

  it('skips images, font programs, metadata and attached files, which text extraction never parses', () => {
    const big = inflatingTo(8);
    const bytes = pdfWith([
      { dictionary: '/Type /XObject /Subtype /Image /Filter /FlateDecode', data: big },
      { dictionary: '/Length1 9999 /Filter /FlateDecode', data: big },
      { dictionary: '/Type /EmbeddedFile /Filter /FlateDecode', data: big },
    ]);
    expect(findOversizedStream(bytes, 1024 * 1024)).toBeUndefined();
  });

  it('splits the streams between workers by position: together the shares cover them all', () => {
    const bytes = pdfWith([
      { dictionary: '/Filter /FlateDecode', data: inflatingTo(1) },
      { dictionary: '/Filter /FlateDecode', data: inflatingTo(8) },
    ]);
    const cap = 4 * 1024 * 1024;
    expect(findOversizedStream(bytes, cap, { index: 0, of: 2 })).toBeUndefined();
    expect(findOversizedStream(bytes, cap, { index: 1, of: 2 })).toBeGreaterThan(0);
  });

  it('ignores damaged or differently filtered data (pdf.js reports what it cannot read)', () => {
    const bytes = pdfWith([
      { dictionary: '/Filter [/ASCII85Decode /FlateDecode]', data: Buffer.from('<~garbage~>') },
    ]);
    expect(findOversizedStream(bytes, 1024)).toBeUndefined();
  });
});

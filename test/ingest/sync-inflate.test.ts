import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { SyncDecompressionStream } from '../../src/ingest/pdf/sync-inflate.ts';
import { pdfToBlocks } from '../../src/ingest/pdf-to-markdown.ts';
import { addReportPage } from '../support/make-bomb-pdf.ts';

/** Inflates the way pdf.js does: one write, close after it, then `for await` over the readable. */
async function inflateLikePdfJs(stream: SyncDecompressionStream, data: Uint8Array): Promise<string> {
  const writer = stream.writable.getWriter();
  await writer.ready;
  writer
    .write(data)
    .then(async () => {
      await writer.ready;
      await writer.close();
    })
    .catch(() => {});
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream.readable) chunks.push(chunk);
  return Buffer.concat(chunks).toString('latin1');
}

const content = 'BT /F1 12 Tf 72 720 Td (Prime the pump before first use) Tj ET\n'.repeat(20);

describe('SyncDecompressionStream (the DecompressionStream of the extraction workers)', () => {
  it('inflates deflate, deflate-raw and gzip data as the web class does', async () => {
    const input = Buffer.from(content);
    expect(await inflateLikePdfJs(new SyncDecompressionStream('deflate'), deflateSync(input))).toBe(content);
    expect(await inflateLikePdfJs(new SyncDecompressionStream('deflate-raw'), deflateRawSync(input))).toBe(
      content,
    );
    expect(await inflateLikePdfJs(new SyncDecompressionStream('gzip'), gzipSync(input))).toBe(content);
  });

  it('fails the reading of a truncated or damaged stream, so that pdf.js falls back to its own decoder', async () => {
    const deflated = deflateSync(Buffer.from(content));
    await expect(
      inflateLikePdfJs(new SyncDecompressionStream('deflate'), deflated.subarray(0, deflated.length - 4)),
    ).rejects.toThrow();
    await expect(
      inflateLikePdfJs(new SyncDecompressionStream('deflate'), Buffer.from('not deflate at all')),
    ).rejects.toThrow();
  });

  it('fails a stream inflating past its cap', async () => {
    const deflated = deflateSync(Buffer.alloc(64 * 1024, 0x41));
    await expect(inflateLikePdfJs(new SyncDecompressionStream('deflate', 1024), deflated)).rejects.toThrow();
    expect(await inflateLikePdfJs(new SyncDecompressionStream('deflate', 64 * 1024), deflated)).toHaveLength(
      64 * 1024,
    );
  });

  it('refuses a format it does not know, like the web class (pdf.js then decodes the stream itself)', () => {
    expect(() => new SyncDecompressionStream('brotli')).toThrow(TypeError);
  });
});

describe('a page whose content stream lacks its zlib checksum', () => {
  it('is still read (zlib refuses it; pdf.js decodes it itself)', async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    const { page, fontKey } = addReportPage(document, font);
    const deflated = deflateSync(
      Buffer.from(`BT /${fontKey} 10 Tf 56 700 Td (Prime the pump first) Tj ET\n`),
    );
    // Without the Adler-32 checksum (its last 4 bytes) zlib reports the stream truncated.
    const stream = document.context.stream(deflated.subarray(0, deflated.length - 4), {
      Filter: 'FlateDecode',
    });
    page.node.addContentStream(document.context.register(stream));
    const bytes = await document.save({ useObjectStreams: false });

    const { blocks } = await pdfToBlocks(bytes, { name: 'truncated.pdf', workers: 1 });
    expect(blocks.map((block) => block.text).join('\n')).toContain('Prime the pump first');
  });
});

/**
 * Images and scanned PDFs for the OCR tests, made in the test: text drawn with @napi-rs/canvas (PNG,
 * JPEG, and an uncompressed grayscale TIFF written here from the canvas's pixels), and PDFs whose pages
 * are such an image only (a scan) or real text, made with pdf-lib.
 */
import { deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface DrawnText {
  lines: string[];
  /** Pixels; small images keep the tests quick (OCR takes about a second per small image). */
  width?: number;
  fontSize?: number;
}

function drawText({ lines, width = 900, fontSize = 36 }: DrawnText) {
  const lineHeight = Math.round(fontSize * 1.6);
  const canvas = createCanvas(width, lineHeight * (lines.length + 1));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `${fontSize}px sans-serif`;
  lines.forEach((line, index) => {
    context.fillText(line, fontSize, lineHeight * (index + 1));
  });
  return canvas;
}

export function textPng(text: DrawnText): Uint8Array {
  return new Uint8Array(drawText(text).toBuffer('image/png'));
}

export function textJpeg(text: DrawnText): Uint8Array {
  return new Uint8Array(drawText(text).toBuffer('image/jpeg', 90));
}

/** A baseline TIFF: little-endian, one strip of 8-bit gray pixels, no compression. */
export function textTiff(text: DrawnText): Uint8Array {
  const canvas = drawText(text);
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const gray = new Uint8Array(width * height);
  for (let pixel = 0; pixel < gray.length; pixel++) gray[pixel] = rgba[pixel * 4] ?? 255;
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 4, width], // ImageWidth
    [257, 4, height], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // PhotometricInterpretation: black is zero
    [273, 4, 0], // StripOffsets (set below)
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, gray.length], // StripByteCounts
  ];
  const directoryOffset = 8;
  const directorySize = 2 + entries.length * 12 + 4;
  const pixelsOffset = directoryOffset + directorySize;
  const bytes = new Uint8Array(pixelsOffset + gray.length);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 0x2a, 0x00]);
  view.setUint32(4, directoryOffset, true);
  view.setUint16(directoryOffset, entries.length, true);
  entries.forEach(([tag, type, value], index) => {
    const at = directoryOffset + 2 + index * 12;
    view.setUint16(at, tag, true);
    view.setUint16(at + 2, type, true);
    view.setUint32(at + 4, 1, true);
    const written = tag === 273 ? pixelsOffset : value;
    if (type === 3) view.setUint16(at + 8, written, true);
    else view.setUint32(at + 8, written, true);
  });
  bytes.set(gray, pixelsOffset);
  return bytes;
}

/**
 * A valid PNG of a few dozen bytes whose header declares `width` × `height` pixels (a decompression
 * bomb: decoding it would need width × height × 4 bytes). Its one row of data is all a reader gets.
 */
export function pixelBombPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.byteLength);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit grayscale, no interlace
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(1 + Math.min(width, 1024)))),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A page of a PDF: a scan (the image fills the page, no text layer) or lines of real text. */
export type PdfPage = { scan: Uint8Array } | { text: string[] };

/**
 * Text pages are 8.5 × 11 in; a scanned page is the size of its image at 300 dpi (the resolution the
 * reader renders at), so the tests' scans stay small and quick to recognise.
 */
export async function makePdf(pages: PdfPage[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.setCreationDate(new Date('2024-01-01T00:00:00Z'));
  document.setModificationDate(new Date('2024-01-01T00:00:00Z'));
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    if ('scan' in content) {
      const image = await document.embedPng(content.scan);
      const { width, height } = image.scale(72 / 300);
      document.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
    } else {
      const page = document.addPage([612, 792]);
      content.text.forEach((line, index) => {
        page.drawText(line, { x: 72, y: 700 - index * 16, size: 11, font });
      });
    }
  }
  return document.save({ useObjectStreams: false });
}

/**
 * A guard run before pdf.js sees a file: every FlateDecode stream that pdf.js may parse (page
 * content, forms, object streams) is
 * inflated by zlib, natively and with a cap on its output, and a stream inflating past the cap is
 * reported (images, font programs, metadata and attached files are skipped: text extraction never
 * lexes them).
 * pdf.js builds a string operand one character at a time in one array; a content stream
 * holding one string of hundreds of MB can then abort the whole process from a worker thread, heap
 * limit or not (nodejs/node#47224), so such a file must be refused before it is parsed.
 */
import { constants, inflateSync } from 'node:zlib';

/** Deflate's largest possible expansion is 1,032:1 (RFC 1951 blocks); with some margin. */
const maximumDeflateRatio = 1_100;

/** Images, font programs (FontFile: /Length1; FontFile3: its subtypes), metadata and attached files. */
const skipped =
  /\/Subtype\s*\/(?:Image|Type1C|CIDFontType0C|OpenType|XML)\b|\/Length1\b|\/Type\s*\/(?:EmbeddedFile|Metadata)\b/;

/**
 * Returns the byte offset of the first stream inflating past `maxBytes`, or undefined. With `share`,
 * only every `share.of`-th stream from `share.index` is inflated (workers split the work).
 */
export function findOversizedStream(
  bytes: Uint8Array,
  maxBytes: number,
  share = { index: 0, of: 1 },
): number | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = -1;
  for (let at = buffer.indexOf('stream'); at >= 0; at = buffer.indexOf('stream', at + 6)) {
    // The keyword, not the end of "endstream": no letter before it, an end of line after it.
    if (at > 0 && isLetter(buffer[at - 1] ?? 0)) continue;
    let dataStart = at + 6;
    if (buffer[dataStart] === 0x0d) dataStart++;
    if (buffer[dataStart] !== 0x0a) continue;
    dataStart++;
    position++;
    if (position % share.of !== share.index) continue;
    const objectStart = buffer.lastIndexOf(' obj', at);
    const dictionary = buffer.toString('latin1', Math.max(objectStart, at - 4_096, 0), at);
    if (!dictionary.includes('/FlateDecode') || skipped.test(dictionary)) continue;
    const dataEnd = buffer.indexOf('endstream', dataStart);
    const data = bytes.subarray(dataStart, dataEnd < 0 ? bytes.byteLength : dataEnd);
    // Deflate expands at most 1,032-fold: a stream this small cannot reach the cap (most page content).
    if (data.byteLength * maximumDeflateRatio > maxBytes && inflatesPast(data, maxBytes)) return at;
  }
  return undefined;
}

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

function inflatesPast(data: Uint8Array, maxBytes: number): boolean {
  try {
    // A truncated or odd stream inflates as far as it goes; only the size matters here.
    inflateSync(data, { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH });
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
  }
}

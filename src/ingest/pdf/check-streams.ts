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
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const streamStart = /(?:^|[^a-z])stream\r?\n/g;
  let position = -1;
  for (let match = streamStart.exec(text); match; match = streamStart.exec(text)) {
    const dataStart = match.index + match[0].length;
    position++;
    if (position % share.of !== share.index) continue;
    const objectStart = text.lastIndexOf(' obj', match.index);
    const dictionary = text.slice(Math.max(objectStart, match.index - 4_096, 0), match.index);
    if (!dictionary.includes('/FlateDecode') || skipped.test(dictionary)) continue;
    const dataEnd = text.indexOf('endstream', dataStart);
    const data = bytes.subarray(dataStart, dataEnd < 0 ? bytes.byteLength : dataEnd);
    if (inflatesPast(data, maxBytes)) return match.index;
    if (dataEnd > 0) streamStart.lastIndex = dataEnd;
  }
  return undefined;
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

/**
 * What a file is, from its bytes (never its name alone): a PDF starts with `%PDF-` (within its first
 * KiB), whatever it is called; a .md/.txt file must be valid UTF-8 without NUL bytes. Anything else —
 * an image named .pdf, a PDF-less .pdf, a binary .txt — is unsupported; a .pdf that is not one is
 * told so (and whether it is text, which can be ingested under a .txt name). Images (PNG, JPEG, TIFF,
 * read with OCR) are told by their magic bytes too; one named as a document (.pdf, .txt, …) is told what
 * it really is.
 */
import { RagentError } from '../errors.ts';

export type FileKind = 'pdf' | 'markdown' | 'text' | 'image';

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

const imageMagics: Array<{ format: string; extension: string; magic: number[] }> = [
  { format: 'PNG', extension: '.png', magic: [0x89, 0x50, 0x4e, 0x47] },
  { format: 'JPEG', extension: '.jpg', magic: [0xff, 0xd8, 0xff] },
  { format: 'TIFF', extension: '.tif', magic: [0x49, 0x49, 0x2a, 0x00] }, // II*\0, little-endian
  { format: 'TIFF', extension: '.tif', magic: [0x4d, 0x4d, 0x00, 0x2a] }, // MM\0*, big-endian
];

/** Names that claim a document format: an image under one of them is told so, not read. */
const documentName = /\.(pdf|md|markdown|txt|docx?|odt|pptx?|odp|xlsx?|ods|csv|tsv|html?|eml|mbox)$/i;

export interface FileLimits {
  maxFileBytes: number;
}

/** Throws FILE_EMPTY, FILE_TOO_LARGE or FILE_UNSUPPORTED with a one-line reason. */
export function detectFileKind(name: string, bytes: Uint8Array, limits: FileLimits): FileKind {
  if (bytes.byteLength === 0) {
    throw new RagentError('FILE_EMPTY', `${name} is empty (0 bytes). Check the file and try again.`);
  }
  if (bytes.byteLength > limits.maxFileBytes) {
    const megabytes = (size: number) => `${Math.round((size / 1024 / 1024) * 10) / 10} MB`;
    throw new RagentError(
      'FILE_TOO_LARGE',
      `${name} is ${megabytes(bytes.byteLength)}, over the ${megabytes(limits.maxFileBytes)} limit. ` +
        'Split it, or raise RAGENT_MAX_FILE_MB.',
      { details: { bytes: bytes.byteLength, limit: limits.maxFileBytes } },
    );
  }
  if (startsWithPdfMagic(bytes)) return 'pdf';
  const image = imageMagics.find(({ magic }) => magic.every((byte, index) => bytes[index] === byte));
  if (image) {
    const claimed = documentName.exec(name)?.[1];
    if (claimed === undefined) return 'image';
    throw new RagentError(
      'FILE_UNSUPPORTED',
      `${name} is named .${claimed.toLowerCase()} but is a ${image.format} image. Rename it to ` +
        `${image.extension} to ingest it as an image (its text is read with OCR).`,
    );
  }
  // Text has no magic bytes: it must be valid UTF-8 and be named as Markdown or text.
  const text = isText(bytes);
  if (/\.(md|markdown|txt)$/i.test(name) && text) return /\.txt$/i.test(name) ? 'text' : 'markdown';
  if (/\.pdf$/i.test(name)) {
    throw new RagentError(
      'FILE_UNSUPPORTED',
      text
        ? `${name} is named .pdf but is not a PDF: its content is plain text. Rename it to .txt (or .md) ` +
            'to ingest it as text, or export the document as a real PDF.'
        : `${name} is named .pdf but is not a PDF (it does not start with %PDF-). Export or download the ` +
            'document again as a PDF.',
    );
  }
  throw new RagentError(
    'FILE_UNSUPPORTED',
    `${name} is not a PDF, Markdown, text or image file. Only .pdf, .md, .txt and images (.png, .jpg, ` +
      '.tif) can be ingested.',
  );
}

function startsWithPdfMagic(bytes: Uint8Array): boolean {
  // The spec allows junk before the header; readers accept it within the first 1,024 bytes.
  const limit = Math.min(bytes.byteLength - pdfMagic.length, 1024);
  for (let offset = 0; offset <= limit; offset++) {
    if (pdfMagic.every((byte, index) => bytes[offset + index] === byte)) return true;
  }
  return false;
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    // `stream` accepts a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 1 << 20), { stream: true });
    return true;
  } catch {
    return false;
  }
}

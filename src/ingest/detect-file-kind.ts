/**
 * What a file is, from its bytes (never its name alone): a PDF starts with `%PDF-` (within its first
 * KiB), whatever it is called; a .md/.txt file must be valid UTF-8 without NUL bytes. Anything else —
 * an image named .pdf, a PDF-less .pdf, a binary .txt — is unsupported; a .pdf that is not one is
 * told so (and whether it is text, which can be ingested under a .txt name).
 */
import { RagentError } from '../errors.ts';
import { looksLikeEmail, looksLikeHtml, looksLikeMbox } from './readers/markup-signatures.ts';

export type FileKind = 'pdf' | 'markdown' | 'text' | 'html' | 'email' | 'mbox';

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

export interface FileLimits {
  maxFileBytes: number;
  /** Text that is none of the kinds above is read as this, whatever its name (a fetched page's Markdown). */
  textAs?: 'markdown';
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
  // HTML and e-mail may be in any 8-bit charset; their first bytes tell (a doctype, headers). They are
  // checked before the PDF signature, which may follow junk: a mail can carry a PDF in its first KiB.
  const pdfFirst = pdfMagic.every((byte, index) => bytes[index] === byte);
  if (!pdfFirst && !bytes.subarray(0, 16_384).includes(0)) {
    if (looksLikeHtml(bytes)) return 'html';
    if (looksLikeMbox(bytes)) return 'mbox';
    if (looksLikeEmail(bytes)) return 'email';
  }
  if (startsWithPdfMagic(bytes)) return 'pdf';
  // Text has no magic bytes: it must be valid UTF-8 and be named as Markdown or text.
  const text = isText(bytes);
  if (text && limits.textAs) return limits.textAs;
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
    `${name} is not a PDF, Markdown, text, HTML or e-mail file. Only .pdf, .md, .txt, .html, .eml and .mbox files can be ingested.`,
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

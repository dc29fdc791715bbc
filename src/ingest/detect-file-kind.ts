/**
 * What a file is, from its bytes (never its name alone): a PDF starts with `%PDF-` (within its first
 * KiB), whatever it is called; an Office file is a zip whose directory names its main part (DOCX, PPTX,
 * XLSX: `[Content_Types].xml` and `word/`, `ppt/` or `xl/`; OpenDocument: its `mimetype` entry); a
 * password-protected Office file is an OLE compound file holding `EncryptionInfo`. A .md/.txt/.csv/.tsv
 * file must be valid UTF-8 without NUL bytes; HTML and e-mail (.eml, .mbox) are told by their first bytes
 * (a doctype or tag, mail headers, a `From ` line) in any 8-bit charset. A file whose name claims one
 * type while its bytes are another (a .docx that is a PDF, a .pdf that is text)  is told what it really is.
 * Images (PNG, JPEG, TIFF, read with OCR) are told by their magic bytes too; one named as a document
 * (.pdf, .txt, …) is told what it really is.
 */
import type { FileKind } from '../core/file-kind.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import { looksLikeEmail, looksLikeHtml, looksLikeMbox } from './readers/markup-signatures.ts';
import { officeEncrypted } from './readers/open-document.ts';
import { isZip, tryListEntries } from './readers/zip-container.ts';

export type { FileKind } from '../core/file-kind.ts';

const pdfMagic = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const oleMagic = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The kinds an Office file's extension claims. */
const officeExtensions: Readonly<Record<string, FileKind>> = {
  docx: 'docx',
  odt: 'odt',
  pptx: 'pptx',
  odp: 'odp',
  xlsx: 'xlsx',
  ods: 'ods',
};

const kindNames: Readonly<Record<FileKind, string>> = {
  pdf: 'a PDF',
  markdown: 'Markdown',
  text: 'plain text',
  docx: 'a Word document (DOCX)',
  odt: 'an OpenDocument text (ODT)',
  pptx: 'a PowerPoint deck (PPTX)',
  odp: 'an OpenDocument presentation (ODP)',
  xlsx: 'an Excel workbook (XLSX)',
  ods: 'an OpenDocument spreadsheet (ODS)',
  csv: 'CSV',
  tsv: 'TSV',
  html: 'an HTML page',
  email: 'an e-mail (.eml)',
  mbox: 'a mailbox (.mbox)',
  image: 'an image (PNG, JPEG or TIFF)',
};

const kindExtensions: Readonly<Partial<Record<FileKind, string>>> = {
  pdf: '.pdf',
  docx: '.docx',
  odt: '.odt',
  pptx: '.pptx',
  odp: '.odp',
  xlsx: '.xlsx',
  ods: '.ods',
};

export const supportedTypesText =
  '.pdf, .md, .txt, .docx, .odt, .pptx, .odp, .xlsx, .ods, .csv, .tsv, .html, .eml, .mbox and images (.png, .jpg, .tif)';

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
  /** Text that is none of the kinds above is read as this, whatever its name (a fetched page's Markdown). */
  textAs?: 'markdown';
}

/** Throws FILE_EMPTY, FILE_TOO_LARGE, FILE_UNSUPPORTED or OFFICE_ENCRYPTED with a one-line reason. */
export function detectFileKind(name: string, bytes: Uint8Array, limits: FileLimits): FileKind {
  if (bytes.byteLength === 0) {
    throw new RagentError('FILE_EMPTY', errorMessages.FILE_EMPTY.noBytes({ name }));
  }
  if (bytes.byteLength > limits.maxFileBytes) {
    const megabytes = (size: number) => `${Math.round((size / 1024 / 1024) * 10) / 10} MB`;
    throw new RagentError(
      'FILE_TOO_LARGE',
      errorMessages.FILE_TOO_LARGE({
        name,
        size: megabytes(bytes.byteLength),
        limit: megabytes(limits.maxFileBytes),
      }),
      { details: { bytes: bytes.byteLength, limit: limits.maxFileBytes } },
    );
  }
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  const claimed = extension === 'pdf' ? 'pdf' : officeExtensions[extension];
  if (startsWith(bytes, oleMagic)) {
    if (isEncryptedOffice(bytes)) throw officeEncrypted(name);
    throw new RagentError('FILE_UNSUPPORTED', errorMessages.FILE_UNSUPPORTED.oldOffice({ name }));
  }
  const image = imageMagics.find(({ magic }) => magic.every((byte, index) => bytes[index] === byte));
  if (image) {
    const claimedDocument = documentName.exec(name)?.[1];
    if (claimedDocument === undefined) return 'image';
    throw new RagentError(
      'FILE_UNSUPPORTED',
      errorMessages.FILE_UNSUPPORTED.imageMisnamed({
        name,
        claimed: claimedDocument.toLowerCase(),
        format: image.format,
        extension: image.extension,
      }),
    );
  }
  // HTML and e-mail may be in any 8-bit charset; their first bytes tell (a doctype, headers). They are
  // checked before the PDF signature, which may follow junk: a mail can carry a PDF in its first KiB.
  const pdfFirst = startsWith(bytes, pdfMagic);
  if (!claimed && !pdfFirst && !bytes.subarray(0, 16_384).includes(0)) {
    if (looksLikeHtml(bytes)) return 'html';
    if (looksLikeMbox(bytes)) return 'mbox';
    if (looksLikeEmail(bytes)) return 'email';
  }
  const contentKind = startsWithPdfMagic(bytes) ? 'pdf' : isZip(bytes) ? officeKindOfZip(bytes) : undefined;
  if (claimed && contentKind !== claimed) throw mismatch(name, extension, contentKind, bytes);
  if (contentKind) return contentKind;
  // Text has no magic bytes: it must be valid UTF-8 and be named as a text kind.
  const text = isText(bytes);
  if (text && limits.textAs) return limits.textAs;
  if (text) {
    if (/\.(md|markdown)$/i.test(name)) return 'markdown';
    if (extension === 'txt') return 'text';
    if (extension === 'csv') return 'csv';
    if (extension === 'tsv' || extension === 'tab') return 'tsv';
  }
  throw new RagentError(
    'FILE_UNSUPPORTED',
    errorMessages.FILE_UNSUPPORTED.unknownType({ name, supportedTypesText }),
  );
}

function mismatch(
  name: string,
  extension: string,
  actual: FileKind | undefined,
  bytes: Uint8Array,
): RagentError {
  const claimedName = extension === 'pdf' ? 'a PDF' : kindNames[officeExtensions[extension] ?? 'text'];
  if (actual) {
    const rename = kindExtensions[actual];
    return new RagentError(
      'FILE_UNSUPPORTED',
      errorMessages.FILE_UNSUPPORTED.otherKind({
        name,
        extension,
        actualName: kindNames[actual],
        claimedName,
        rename,
      }),
      { details: { claimed: extension, actual } },
    );
  }
  if (isText(bytes)) {
    return new RagentError(
      'FILE_UNSUPPORTED',
      errorMessages.FILE_UNSUPPORTED.plainText({ name, extension, claimedName }),
    );
  }
  if (extension === 'pdf')
    return new RagentError('FILE_UNSUPPORTED', errorMessages.FILE_UNSUPPORTED.notPdf({ name }));
  return new RagentError(
    'FILE_UNSUPPORTED',
    errorMessages.FILE_UNSUPPORTED.notOfficeZip({ name, extension, claimedName }),
  );
}

/** An Office format told by the zip's directory (and the mimetype entry of OpenDocument files). */
function officeKindOfZip(bytes: Uint8Array): FileKind | undefined {
  const entries = tryListEntries(bytes);
  if (!entries) return undefined;
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('[Content_Types].xml')) {
    if (names.has('word/document.xml')) return 'docx';
    if (names.has('ppt/presentation.xml')) return 'pptx';
    if (names.has('xl/workbook.xml')) return 'xlsx';
    return undefined;
  }
  // The mimetype entry is stored first and uncompressed: its text follows its local header at offset 30.
  if (names.has('mimetype')) {
    const nameLength = (bytes[26] ?? 0) | ((bytes[27] ?? 0) << 8);
    const extraLength = (bytes[28] ?? 0) | ((bytes[29] ?? 0) << 8);
    const start = 30 + nameLength + extraLength;
    const mimetype = new TextDecoder('latin1').decode(bytes.subarray(start, start + 64));
    if (mimetype.startsWith('application/vnd.oasis.opendocument.text')) return 'odt';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.presentation')) return 'odp';
    if (mimetype.startsWith('application/vnd.oasis.opendocument.spreadsheet')) return 'ods';
  }
  return undefined;
}

/**
 * Word, Excel and PowerPoint save a password-protected file as an OLE compound file with an
 * `EncryptionInfo` stream (its directory names are UTF-16LE); the name is searched in the file's bytes.
 */
function isEncryptedOffice(bytes: Uint8Array): boolean {
  const needle = Buffer.from('EncryptionInfo', 'utf16le');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(needle);
}

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
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

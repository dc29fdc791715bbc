/**
 * What a stored document is, as told by its bytes when it was ingested. Every part of ragent that
 * cites a document (search results, answers' sources) reads its positions in this kind's unit: pages
 * of a PDF, slides of a deck, rows of a sheet, or nothing but sections for text documents.
 */
export type FileKind =
  | 'pdf'
  | 'markdown'
  | 'text'
  | 'docx'
  | 'odt'
  | 'pptx'
  | 'odp'
  | 'xlsx'
  | 'ods'
  | 'csv'
  | 'tsv'
  | 'html'
  | 'email'
  | 'mbox'
  /** PNG, JPEG or TIFF, read with OCR (one page). */
  | 'image';

/**
 * The extensions of the files ragent reads, for pickers that filter by name (Slack's file input).
 * Only a first filter: what a file is, is told from its bytes when it is ingested.
 */
export const supportedFileExtensions: readonly string[] = [
  'pdf',
  'md',
  'markdown',
  'txt',
  'docx',
  'odt',
  'pptx',
  'odp',
  'xlsx',
  'ods',
  'csv',
  'tsv',
  'html',
  'htm',
  'eml',
  'mbox',
  'png',
  'jpg',
  'jpeg',
  'tif',
  'tiff',
];

/** Kinds whose chunk positions are spreadsheet rows (the sheet is the first element of the section path). */
export const sheetKinds: ReadonlySet<FileKind> = new Set(['xlsx', 'ods', 'csv', 'tsv']);

/** Kinds whose chunk positions are slide numbers. */
export const slideKinds: ReadonlySet<FileKind> = new Set(['pptx', 'odp']);

/**
 * Kinds that have only sections (every chunk at position 1). Any kind in none of these sets counts its
 * positions in pages (PDF, and what else is paged).
 */
export const sectionKinds: ReadonlySet<FileKind> = new Set([
  'markdown',
  'text',
  'docx',
  'odt',
  'html',
  'email',
  'mbox',
]);

/**
 * The kind of a document stored before kinds were recorded: those could only be PDF, Markdown or text,
 * told apart by their names (detection required a .md/.markdown or .txt name for text).
 */
export function kindOfOldDocument(name: string): FileKind {
  if (/\.(md|markdown)$/i.test(name)) return 'markdown';
  if (/\.txt$/i.test(name)) return 'text';
  return 'pdf';
}

/**
 * Which reader reads which kind of file. PDF, Markdown, plain text and images keep their own paths in
 * extract-document.ts (PDF pages in their own worker pool); every other kind is read by its reader, in
 * a worker thread (read-in-worker.ts). Readers are loaded when first needed, so a worker reading a CSV
 * file does not load mammoth.
 */
import type { FileKind } from '../../core/file-kind.ts';
import type { Reader } from './reader.ts';

const readers: Partial<Record<FileKind, () => Promise<Reader>>> = {
  docx: async () => (await import('./docx-reader.ts')).readDocx,
  odt: async () => (await import('./odt-reader.ts')).readOdt,
  pptx: async () => (await import('./pptx-reader.ts')).readPptx,
  odp: async () => (await import('./odp-reader.ts')).readOdp,
  xlsx: async () => (await import('./xlsx-reader.ts')).readXlsx,
  ods: async () => (await import('./ods-reader.ts')).readOds,
  csv: async () => (await import('./csv-reader.ts')).readCsv,
  tsv: async () => (await import('./csv-reader.ts')).readTsv,
  // HTML and e-mail too: parsing a large page or mailbox takes seconds of CPU.
  html: async () => (await import('./html-reader.ts')).readHtml,
  email: async () => {
    const { readEmail } = await import('./email-reader.ts');
    return (bytes, options) => readEmail(bytes, options.limits);
  },
  mbox: async () => {
    const { readMbox } = await import('./email-reader.ts');
    return (bytes, options) => readMbox(bytes, options.limits);
  },
};

export function hasReader(kind: FileKind): boolean {
  return readers[kind] !== undefined;
}

/** The reader of a kind; throws for a kind without one (check `hasReader` first). */
export async function loadReader(kind: FileKind): Promise<Reader> {
  const load = readers[kind];
  if (!load) throw new Error(`No reader for ${kind} files.`);
  return load();
}

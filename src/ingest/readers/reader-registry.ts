/**
 * Which reader reads which kind of file. PDF, Markdown and plain text keep their own paths in
 * extract-document.ts (PDF pages in their own worker pool); every other kind is read by its reader.
 */
import type { FileKind } from '../../core/file-kind.ts';
import { readCsv, readTsv } from './csv-reader.ts';
import { readDocx } from './docx-reader.ts';
import { readOdp } from './odp-reader.ts';
import { readOds } from './ods-reader.ts';
import { readOdt } from './odt-reader.ts';
import { readPptx } from './pptx-reader.ts';
import type { Reader } from './reader.ts';
import { readXlsx } from './xlsx-reader.ts';

const readers: Partial<Record<FileKind, Reader>> = {
  docx: readDocx,
  odt: readOdt,
  pptx: readPptx,
  odp: readOdp,
  xlsx: readXlsx,
  ods: readOds,
  csv: readCsv,
  tsv: readTsv,
};

export function readerFor(kind: FileKind): Reader | undefined {
  return readers[kind];
}

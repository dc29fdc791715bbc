/** The shape every format's reader has: a file's bytes in, the blocks chunking works on out. */
import type { IngestLimits } from '../ingest-limits.ts';
import type { ExtractedDocument } from '../text-block.ts';

export interface ReaderOptions {
  /** File name, for error messages. */
  name: string;
  limits: IngestLimits;
  signal?: AbortSignal;
}

/**
 * Reads one file into blocks whose `pageStart`/`pageEnd` are positions in the unit of its kind: pages
 * (PDF), slide numbers (decks), row numbers as the sheet shows them (spreadsheets), or 1 for documents
 * that only have sections. Throws a RagentError naming the limit crossed or what is wrong with the file.
 */
export type Reader = (bytes: Uint8Array, options: ReaderOptions) => Promise<ExtractedDocument>;

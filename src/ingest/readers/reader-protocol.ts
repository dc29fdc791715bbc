/** Messages between the ingest and a file reader worker. */
import type { FileKind } from '../../core/file-kind.ts';
import type { ErrorCode } from '../../errors.ts';
import type { IngestLimits } from '../ingest-limits.ts';
import type { ExtractedDocument } from '../text-block.ts';

export interface ReaderWorkerInput {
  kind: FileKind;
  name: string;
  /** The file's bytes, shared read-only. */
  bytes: SharedArrayBuffer;
  limits: IngestLimits;
}

export type ReaderWorkerResult =
  | { type: 'done'; document: ExtractedDocument }
  /** A refusal of the file (a RagentError), sent as its parts. */
  | { type: 'failed'; code: ErrorCode; message: string; details: Record<string, unknown> | undefined }
  /** Anything else: a bug or a library's unexpected error. */
  | { type: 'crashed'; message: string };

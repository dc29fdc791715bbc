/** Messages between the ingest and its PDF extraction workers. */
import type { PageText } from './page-lines.ts';

export interface WorkerInput {
  /** The file's bytes, shared read-only; each worker copies them before pdf.js takes them. */
  bytes: SharedArrayBuffer;
  name: string;
}

/** Parent → worker. */
export type ToWorker = { type: 'pages'; from: number; to: number } | { type: 'close' };

/** Worker → parent. */
export type FromWorker =
  | { type: 'ready'; pageCount: number }
  | { type: 'page'; page: PageText }
  | { type: 'page-failed'; page: number; message: string }
  | { type: 'batch-done' }
  | { type: 'failed'; code: 'PDF_ENCRYPTED' | 'PDF_CORRUPT'; message: string };

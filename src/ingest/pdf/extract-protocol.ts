/** Messages between the ingest and its PDF extraction workers. */
import type { OcrSettings } from '../ocr/ocr-settings.ts';
import type { PageText } from './page-lines.ts';
import type { OutlineEntry } from './read-outline.ts';

export interface WorkerInput {
  /** The file's bytes, shared read-only; each worker copies them before pdf.js takes them. */
  bytes: SharedArrayBuffer;
  name: string;
  /** A page with more text than this (characters, one more per text run) stops the worker's reading. */
  maxPageChars: number;
  /** Streams inflating past this are refused before pdf.js parses anything (see check-streams.ts). */
  maxStreamBytes: number;
  /** This worker checks every `of`-th stream from `index`. */
  streamShare: { index: number; of: number };
  /** Present when OCR is on: pages without text are rendered and recognised (see ../ocr/). */
  ocr?: OcrSettings;
  /**
   * A thread added to a small file's one thread once it turned out to be a scan (see extract-pages.ts):
   * the first thread has checked every stream and read the outline, so this one only reads pages.
   */
  joined?: boolean;
}

/**
 * Parent → worker. `fontWeights`: read which fonts are bold (documents without an outline, where
 * headings come from fonts); the parent decides once the first worker has read the outline.
 */
export type ToWorker = { type: 'pages'; from: number; to: number; fontWeights: boolean } | { type: 'close' };

/** Worker → parent. */
export type FromWorker =
  | { type: 'ready'; pageCount: number }
  /**
   * Sent once, by the first worker only, after `ready`: the document's outline (empty when it has
   * none). The other workers do not read it (on a large manual that costs a fifth of a second each).
   */
  | { type: 'outline'; entries: OutlineEntry[] }
  /** A page has no text layer and is being recognised by OCR (seconds): sent before its `page`. */
  | { type: 'scanning'; page: number }
  /** `recognised`: the OCR text of a page without a text layer (when OCR is on and found some). */
  | { type: 'page'; page: PageText; chars: number; recognised?: string }
  | { type: 'page-failed'; page: number; message: string }
  | { type: 'page-too-large'; page: number }
  | { type: 'batch-done' }
  | { type: 'stream-too-large'; offset: number }
  | { type: 'failed'; code: WorkerFailure; message: string };

/** The refusals a reader thread reports: the file's (encrypted, corrupt) and OCR's. */
export type WorkerFailure =
  | 'PDF_ENCRYPTED'
  | 'PDF_CORRUPT'
  | 'OCR_LANGUAGE_MISSING'
  | 'OCR_PAGE_TIMEOUT'
  | 'OCR_FAILED'
  | 'INVALID_INPUT';

/** OCR's refusals, which refuse the whole file (a page pdf.js cannot read is only a page without text). */
const ocrFailures: readonly string[] = [
  'OCR_LANGUAGE_MISSING',
  'OCR_PAGE_TIMEOUT',
  'OCR_FAILED',
  'INVALID_INPUT',
];

export function isOcrFailure(code: string): code is WorkerFailure {
  return ocrFailures.includes(code);
}

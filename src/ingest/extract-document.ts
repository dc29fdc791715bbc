/**
 * Any supported file (by its bytes) into blocks: PDF through pdf.js in worker threads (its pages without
 * a text layer through OCR), images through OCR, Markdown and text directly, every other kind by its
 * reader (readers/reader-registry.ts) in a worker thread. All are held to the ingest limits (a text file
 * to RAGENT_MAX_TEXT_MB by its size, a reader's output by the text it made).
 */
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { FileKind } from './detect-file-kind.ts';
import { defaultIngestLimits, type IngestLimits, ingestCancelled, tooMuchText } from './ingest-limits.ts';
import { type OcrSettings, ocrOff } from './ocr/ocr-settings.ts';
import { pdfToBlocks, pdfWithoutText } from './pdf-to-markdown.ts';
import { readImage } from './readers/image-reader.ts';
import { readInWorker } from './readers/read-in-worker.ts';
import { hasReader } from './readers/reader-registry.ts';
import type { ExtractedDocument } from './text-block.ts';
import { markdownToBlocks, plainTextToBlocks } from './text-to-blocks.ts';

export interface ExtractDocumentOptions {
  name: string;
  kind: FileKind;
  workers: number;
  limits?: IngestLimits;
  /** Default: off (the ingestion service passes config.ocr, on unless RAGENT_OCR=off). */
  ocr?: OcrSettings;
  onPage?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/** Kinds whose size in bytes is their size in text (checked before reading). */
const textKinds: ReadonlySet<FileKind> = new Set(['markdown', 'text', 'csv', 'tsv']);

export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractDocumentOptions,
): Promise<ExtractedDocument> {
  const limits = options.limits ?? defaultIngestLimits;
  if (options.signal?.aborted) throw ingestCancelled(options.name, options.signal);
  const ocr = options.ocr ?? ocrOff;
  if (options.kind === 'image') {
    const extracted = await readImage(bytes, { name: options.name, ocr, signal: options.signal });
    options.onPage?.(1, 1);
    return extracted;
  }
  if (textKinds.has(options.kind) && bytes.byteLength > limits.maxTextChars)
    throw tooMuchText(options.name, limits);
  const extracted = await read(bytes, options, limits, ocr);
  if (extracted.blocks.length === 0) {
    throw options.kind === 'pdf'
      ? pdfWithoutText(options.name, ocr)
      : new RagentError('FILE_EMPTY', errorMessages.FILE_EMPTY.noText({ name: options.name }));
  }
  if (options.kind !== 'pdf') {
    const chars = extracted.blocks.reduce((sum, block) => sum + block.text.length + 2, 0);
    if (chars > limits.maxTextChars) throw tooMuchText(options.name, limits);
    options.onPage?.(extracted.pageCount, extracted.pageCount);
  }
  return extracted;
}

function read(
  bytes: Uint8Array,
  options: ExtractDocumentOptions,
  limits: IngestLimits,
  ocr: OcrSettings,
): Promise<ExtractedDocument> {
  if (options.kind === 'pdf') return pdfToBlocks(bytes, { ...options, limits, ocr });
  if (hasReader(options.kind)) {
    return readInWorker(options.kind, bytes, { name: options.name, limits, signal: options.signal });
  }
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  return Promise.resolve(options.kind === 'markdown' ? markdownToBlocks(text) : plainTextToBlocks(text));
}

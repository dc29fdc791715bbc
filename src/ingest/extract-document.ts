/**
 * Any supported file (by its bytes) into blocks: PDF through pdf.js in worker threads (its pages without
 * a text layer through OCR), images through OCR, Markdown and text directly. All are held to the ingest
 * limits (a text file to RAGENT_MAX_TEXT_MB by its size).
 */
import { RagentError } from '../errors.ts';
import type { FileKind } from './detect-file-kind.ts';
import { defaultIngestLimits, type IngestLimits, ingestCancelled, tooMuchText } from './ingest-limits.ts';
import { type OcrSettings, ocrOff } from './ocr/ocr-settings.ts';
import { pdfToBlocks, pdfWithoutText } from './pdf-to-markdown.ts';
import { readImage } from './readers/image-reader.ts';
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
  if (options.kind !== 'pdf' && bytes.byteLength > limits.maxTextChars)
    throw tooMuchText(options.name, limits);
  const extracted =
    options.kind === 'pdf'
      ? await pdfToBlocks(bytes, { ...options, limits, ocr })
      : (options.kind === 'markdown' ? markdownToBlocks : plainTextToBlocks)(
          new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''),
        );
  if (extracted.blocks.length === 0) {
    throw options.kind === 'pdf'
      ? pdfWithoutText(options.name, ocr)
      : new RagentError('FILE_EMPTY', `${options.name} has no text in it. Check the file and try again.`);
  }
  if (options.kind !== 'pdf') options.onPage?.(1, 1);
  return extracted;
}

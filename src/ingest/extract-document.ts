/**
 * Any supported file (by its bytes) into blocks: PDF through pdf.js in worker threads, Markdown and
 * text directly. Both are held to the ingest limits (a text file to RAGENT_MAX_TEXT_MB by its size).
 */
import { RagentError } from '../errors.ts';
import type { FileKind } from './detect-file-kind.ts';
import { defaultIngestLimits, type IngestLimits, ingestCancelled, tooMuchText } from './ingest-limits.ts';
import { pdfToBlocks } from './pdf-to-markdown.ts';
import type { ExtractedDocument } from './text-block.ts';
import { markdownToBlocks, plainTextToBlocks } from './text-to-blocks.ts';

export interface ExtractDocumentOptions {
  name: string;
  kind: FileKind;
  workers: number;
  limits?: IngestLimits;
  onPage?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractDocumentOptions,
): Promise<ExtractedDocument> {
  const limits = options.limits ?? defaultIngestLimits;
  if (options.signal?.aborted) throw ingestCancelled(options.name, options.signal);
  if (options.kind !== 'pdf' && bytes.byteLength > limits.maxTextChars)
    throw tooMuchText(options.name, limits);
  const extracted: ExtractedDocument =
    options.kind === 'pdf'
      ? await pdfToBlocks(bytes, { ...options, limits })
      : // The readers of HTML and e-mail load their libraries only when such a file comes.
        options.kind === 'html'
        ? await (await import('./readers/html-reader.ts')).readHtml(bytes)
        : options.kind === 'email'
          ? await (await import('./readers/email-reader.ts')).readEmail(bytes, limits)
          : options.kind === 'mbox'
            ? await (await import('./readers/email-reader.ts')).readMbox(bytes, limits)
            : (options.kind === 'markdown' ? markdownToBlocks : plainTextToBlocks)(
                new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''),
              );
  if (extracted.blocks.length === 0) {
    throw options.kind === 'pdf'
      ? new RagentError(
          'PDF_NO_TEXT',
          `${options.name} has no text layer (it looks like a scan); OCR is not supported. Ingest a PDF with selectable text.`,
        )
      : new RagentError('FILE_EMPTY', `${options.name} has no text in it. Check the file and try again.`);
  }
  if (options.kind !== 'pdf') options.onPage?.(1, 1);
  return extracted;
}

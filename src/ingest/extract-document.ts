/** Any supported file (by its bytes) into blocks: PDF through pdf.js, Markdown and text directly. */
import { RagentError } from '../errors.ts';
import type { FileKind } from './detect-file-kind.ts';
import { pdfToBlocks } from './pdf-to-markdown.ts';
import type { ExtractedDocument } from './text-block.ts';
import { markdownToBlocks, plainTextToBlocks } from './text-to-blocks.ts';

export interface ExtractDocumentOptions {
  name: string;
  kind: FileKind;
  workers: number;
  onPage?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractDocumentOptions,
): Promise<ExtractedDocument> {
  const extracted =
    options.kind === 'pdf'
      ? await pdfToBlocks(bytes, options)
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

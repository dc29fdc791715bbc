/**
 * An image (PNG, JPEG, TIFF) into blocks by OCR: its size is checked from its header, then one OCR
 * engine (a thread of its own) recognises it. The image is one page: its blocks are cited as page 1.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { ingestCancelled } from '../ingest-limits.ts';
import { checkImageDimensions } from '../ocr/image-dimensions.ts';
import { OcrEngine } from '../ocr/ocr-engine.ts';
import type { OcrSettings } from '../ocr/ocr-settings.ts';
import { recognisedTextToBlocks } from '../ocr/recognised-text.ts';
import type { ExtractedDocument } from '../text-block.ts';

export interface ReadImageOptions {
  name: string;
  ocr: OcrSettings;
  signal?: AbortSignal;
}

/** Throws OCR_OFF, IMAGE_CORRUPT, IMAGE_TOO_LARGE, OCR_LANGUAGE_MISSING, OCR_PAGE_TIMEOUT, OCR_FAILED or IMAGE_NO_TEXT. */
export async function readImage(bytes: Uint8Array, options: ReadImageOptions): Promise<ExtractedDocument> {
  const { name, ocr, signal } = options;
  if (!ocr.enabled) {
    throw new RagentError('OCR_OFF', errorMessages.OCR_OFF({ name }));
  }
  checkImageDimensions(name, bytes, ocr);
  if (signal?.aborted) throw ingestCancelled(name, signal);
  const engine = new OcrEngine(ocr, name);
  // An abort stops the wait at once; closing the engine then ends its thread.
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal ? ingestCancelled(name, signal) : undefined);
  });
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const text = await Promise.race([engine.recognise(bytes), aborted]);
    const blocks = recognisedTextToBlocks(text, 1);
    if (blocks.length === 0) {
      throw new RagentError('IMAGE_NO_TEXT', errorMessages.IMAGE_NO_TEXT({ name, languages: ocr.languages }));
    }
    return { pageCount: 1, blocks };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await engine.close();
  }
}

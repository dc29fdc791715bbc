/**
 * The settings text recognition (OCR) runs with, and the refusals it ends with. OCR reads images
 * (PNG, JPEG, TIFF) and the PDF pages that have no text layer, offline: the engine (tesseract.js's
 * WebAssembly build) and the language data (@tesseract.js-data/<code>) are npm packages.
 */
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';

export interface OcrSettings {
  /** RAGENT_OCR. */
  enabled: boolean;
  /** RAGENT_OCR_LANGS: tesseract language codes (eng, deu, …), each from its @tesseract.js-data package. */
  languages: string[];
  /**
   * RAGENT_OCR_MODEL: `fast` reads a language with Tesseract's fast model where ragent ships one
   * (English, in ocr-models/), about a third quicker for the same words on our pages; `best` (and every
   * language without a fast model) uses its @tesseract.js-data package.
   */
  model: 'fast' | 'best';
  /** RAGENT_OCR_PAGE_SECONDS: recognising one page or image (starting the engine included). */
  pageTimeoutMs: number;
  /** RAGENT_OCR_MAX_MEGAPIXELS: an image's size by its header; a PDF page is rendered within it. */
  maxPixels: number;
}

/** The defaults of the variables above (see src/config.ts). */
export const defaultOcrSettings: OcrSettings = Object.freeze({
  enabled: true,
  languages: ['eng'],
  model: 'fast',
  pageTimeoutMs: 60_000,
  maxPixels: 50_000_000,
});

export const ocrOff: OcrSettings = Object.freeze({ ...defaultOcrSettings, enabled: false });

/** "page 3 of scan.pdf" or "photo.png". */
export function pageLabel(name: string, page: number | undefined): string {
  return page === undefined ? name : `page ${page} of ${name}`;
}

export function ocrPageTimedOut(name: string, page: number | undefined, settings: OcrSettings): RagentError {
  return new RagentError(
    'OCR_PAGE_TIMEOUT',
    errorMessages.OCR_PAGE_TIMEOUT({
      where: pageLabel(name, page),
      seconds: Math.round(settings.pageTimeoutMs / 1000),
    }),
    { details: { page, pageTimeoutMs: settings.pageTimeoutMs } },
  );
}

export function imageTooLarge(
  name: string,
  width: number,
  height: number,
  settings: OcrSettings,
): RagentError {
  const megapixels = (pixels: number) => `${Math.round(pixels / 100_000) / 10} megapixels`;
  return new RagentError(
    'IMAGE_TOO_LARGE',
    errorMessages.IMAGE_TOO_LARGE({
      name,
      width,
      height,
      size: megapixels(width * height),
      limit: megapixels(settings.maxPixels),
    }),
    { details: { width, height, maxPixels: settings.maxPixels } },
  );
}

export function ocrFailed(name: string, page: number | undefined, cause: unknown): RagentError {
  return new RagentError('OCR_FAILED', errorMessages.OCR_FAILED.page({ where: pageLabel(name, page) }), {
    cause,
    details: { page, reason: cause instanceof Error ? cause.message : String(cause) },
  });
}

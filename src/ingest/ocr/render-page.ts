/**
 * Renders PDF pages to greyscale images (PGM, see greyscale-image.ts) for OCR, with pdf.js drawing on
 * @napi-rs/canvas (prebuilt native binaries installed as npm packages). Used in the PDF reader threads
 * only, for the pages that have no text layer.
 *
 * A page is rendered at 300 dpi, or less when that would exceed `maxPixels` (a page can declare any
 * size); an image inside the page larger than `maxPixels` is not decoded at all (pdf.js's
 * `maxImageSize`), so a page cannot make the reader decode a bomb.
 */
import { createIsomorphicCanvasFactory, getDocumentProxy } from 'unpdf';
import type { PdfDocument } from '../pdf/open-pdf.ts';
import { greyscalePgm } from './greyscale-image.ts';

/** 300 dpi: what OCR engines are tuned for. A PDF unit is 1/72 inch. */
const scaleAt300Dpi = 300 / 72;

const canvasImport = () => import('@napi-rs/canvas');

/**
 * pdf.js (in unpdf 1.7) hands font programs over with `ArrayBuffer.prototype.transferToFixedLength`,
 * which Node 20 lacks (it came in Node 21): without it, drawing a page drops every glyph ("ignoring
 * errors during GetOperatorList") and text set in fonts renders blank. Text extraction does not use
 * it. Installed (in the reader threads) only where missing: a transfer by structuredClone, which
 * detaches the original buffer as the real method does.
 */
function installTransferToFixedLength(): void {
  const prototype = ArrayBuffer.prototype as { transferToFixedLength?: unknown };
  if (typeof prototype.transferToFixedLength === 'function') return;
  Object.defineProperty(ArrayBuffer.prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length?: number): ArrayBuffer {
      const moved = structuredClone(this, { transfer: [this] });
      if (length === undefined || length === moved.byteLength) return moved;
      const resized = new Uint8Array(length);
      resized.set(new Uint8Array(moved, 0, Math.min(length, moved.byteLength)));
      return resized.buffer;
    },
  });
}

export class PageRenderer {
  private document: Promise<PdfDocument> | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxPixels: number,
  ) {}

  /** The page as a greyscale PGM image. */
  async render(pageNumber: number): Promise<Uint8Array> {
    this.document ??= this.open();
    const document = await this.document;
    const { createCanvas } = await canvasImport();
    const page = await document.getPage(pageNumber);
    try {
      const { width, height } = page.getViewport({ scale: 1 });
      const scale = Math.min(scaleAt300Dpi, Math.sqrt(this.maxPixels / Math.max(1, width * height)));
      const viewport = page.getViewport({ scale });
      const canvas = createCanvas(
        Math.max(1, Math.floor(viewport.width)),
        Math.max(1, Math.floor(viewport.height)),
      );
      const context = canvas.getContext('2d');
      // Drawn as unpdf's renderPageAsImage draws, but read back as grey pixels instead of a PNG. pdf.js's
      // types name the DOM's canvas; Skia's canvas has the same drawing API.
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
      return greyscalePgm(pixels.data, pixels.width, pixels.height);
    } finally {
      page.cleanup();
    }
  }

  async close(): Promise<void> {
    const document = this.document;
    this.document = undefined;
    if (document) await document.then((opened) => opened.destroy()).catch(() => {});
  }

  /**
   * A document of its own (the text reader's has no canvas): opened once, on the first page to render.
   * Fonts are drawn from their programs in the file (no font face, no system fonts), as for text.
   */
  private async open(): Promise<PdfDocument> {
    installTransferToFixedLength();
    const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
    return getDocumentProxy(this.bytes.slice(), {
      verbosity: 0,
      isEvalSupported: false,
      stopAtErrors: false,
      disableFontFace: true,
      useSystemFonts: true,
      maxImageSize: this.maxPixels,
      CanvasFactory,
    });
  }
}

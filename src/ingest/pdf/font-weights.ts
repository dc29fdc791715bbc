/**
 * Which of a page's fonts are bold. pdf.js's text content names each run's font but carries no weight
 * (bold and regular of one family look the same there); the font object does, with its PostScript name
 * ("ABCDEF+Times-Bold", "NimbusRomNo9L-Medi", "CMBX10"). pdf.js hands the font objects over only while
 * building a page's operator list, so that is done once for a page that brings a font not seen yet —
 * a few pages per document. Used only for documents without an outline (decided in extract-pages.ts).
 */

/** The subset of a pdf.js page this module uses. */
export interface PageWithFonts {
  commonObjs: { has(id: string): boolean; get(id: string): unknown };
  getOperatorList(): Promise<unknown>;
}

/** Weight words of PostScript font names, and TeX's bold fonts (CMBX10, cmb10, SFBX1000, ptmb). */
const boldName =
  /bold|black|heavy|semibold|demi|medi(?:um)?\b|-md\b|^(?:[A-Z]{6}\+)?(?:cmbx|cmb\d|sfbx|lmbx|ec-?bx)/i;

export class FontWeights {
  /** Font ids whose object was asked for once already (found or not). */
  private readonly tried = new Set<string>();
  private readonly bold = new Map<string, boolean>();

  /** The ids among `fontIds` of bold fonts; undefined for a font whose object pdf.js never gave. */
  async of(page: PageWithFonts, fontIds: readonly string[]): Promise<Map<string, boolean>> {
    const missing = fontIds.filter((id) => !this.bold.has(id) && !this.tried.has(id));
    if (missing.some((id) => !page.commonObjs.has(id))) {
      allowFontExport();
      // A page pdf.js cannot draw still has its text: its fonts stay unknown.
      await page.getOperatorList().catch(() => {});
    }
    for (const id of missing) {
      this.tried.add(id);
      if (!page.commonObjs.has(id)) continue;
      const font = page.commonObjs.get(id) as { name?: unknown; bold?: unknown; black?: unknown } | null;
      if (!font) continue;
      this.bold.set(
        id,
        font.bold === true ||
          font.black === true ||
          (typeof font.name === 'string' && boldName.test(font.name)),
      );
    }
    const weights = new Map<string, boolean>();
    for (const id of fontIds) {
      const bold = this.bold.get(id);
      if (bold !== undefined) weights.set(id, bold);
    }
    return weights;
  }
}

/**
 * pdf.js 5 sends a font object to the page with `ArrayBuffer.prototype.transferToFixedLength`, which
 * Node 20 lacks (it came in Node 21): without it every font fails to load there. This adds it, as a copy,
 * in the extraction worker thread that calls it.
 */
function allowFontExport(): void {
  const prototype = ArrayBuffer.prototype as ArrayBuffer & { transferToFixedLength?: unknown };
  if (typeof prototype.transferToFixedLength === 'function') return;
  Object.defineProperty(prototype, 'transferToFixedLength', {
    configurable: true,
    writable: true,
    value(this: ArrayBuffer, length = this.byteLength): ArrayBuffer {
      const copy = new ArrayBuffer(length);
      new Uint8Array(copy).set(new Uint8Array(this, 0, Math.min(length, this.byteLength)));
      return copy;
    },
  });
}

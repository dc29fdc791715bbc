/**
 * Opens a PDF with pdf.js (through unpdf) the one way the ingest uses it, and turns pdf.js's
 * exceptions into typed errors.
 */
import { getDocumentProxy } from 'unpdf';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';

export type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * `bytes` is copied: pdf.js transfers (empties) the buffer it is given.
 *
 * Font options: text extraction needs the encoding and metrics of a font, never its glyph outlines,
 * so `useSystemFonts` lets pdf.js resolve the 14 standard fonts by name instead of fetching
 * `standard_fonts/*.pfb` data (which unpdf's bundle does not ship, and which only rendering uses).
 */
export async function openPdf(bytes: Uint8Array, name = 'the PDF'): Promise<PdfDocument> {
  try {
    return await getDocumentProxy(bytes.slice(), {
      verbosity: 0,
      useSystemFonts: true,
      disableFontFace: true,
      isEvalSupported: false,
      stopAtErrors: false,
    });
  } catch (error) {
    throw pdfOpenError(error, name);
  }
}

export function pdfOpenError(error: unknown, name: string): RagentError {
  const kind = error instanceof Error ? error.name : '';
  if (kind === 'PasswordException') {
    return new RagentError('PDF_ENCRYPTED', errorMessages.PDF_ENCRYPTED({ name }), { cause: error });
  }
  return new RagentError('PDF_CORRUPT', errorMessages.PDF_CORRUPT({ name }), { cause: error });
}

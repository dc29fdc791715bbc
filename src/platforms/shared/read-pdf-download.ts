/**
 * The platform-neutral half of downloading a PDF someone shared with the bot: once the adapter has
 * fetched from a host it trusts (its own allow-list, its own auth), the response is checked here —
 * status, content type, declared size, size while streaming (never more than `maxBytes` in memory),
 * emptiness and the PDF signature. Each adapter words the errors for its people.
 */
import type { RagentError } from '../../errors.ts';

/** Types a PDF download may be served as (CDNs often do not know better than octet-stream). */
const acceptedContentTypes = new Set([
  'application/pdf',
  'application/x-pdf',
  'application/octet-stream',
  'binary/octet-stream',
]);
const pdfSignature = '%PDF-';
/** Where the signature must appear (the PDF spec tolerates leading junk; readers look this far). */
const signatureWindow = 1024;

export interface PdfDownloadErrors {
  /** The host answered something else than 200. */
  status(status: number): RagentError;
  /** Served as something that is not a PDF (`text/html`: a sign-in page, usually). */
  contentType(contentType: string): RagentError;
  tooLarge(bytes: number): RagentError;
  /** The connection broke off while reading. */
  brokenOff(cause: unknown): RagentError;
  empty(): RagentError;
  /** The bytes do not start like a PDF. */
  notPdf(): RagentError;
}

export async function readPdfDownload(
  response: Response,
  maxBytes: number,
  errors: PdfDownloadErrors,
): Promise<Uint8Array> {
  if (response.status !== 200) {
    await response.body?.cancel();
    throw errors.status(response.status);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (contentType && !acceptedContentTypes.has(contentType)) {
    await response.body?.cancel();
    throw errors.contentType(contentType);
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw errors.tooLarge(declared);
  }
  const bytes = await readCapped(response, maxBytes, errors);
  if (bytes.byteLength === 0) throw errors.empty();
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, signatureWindow));
  if (!head.includes(pdfSignature)) throw errors.notPdf();
  return bytes;
}

async function readCapped(
  response: Response,
  maxBytes: number,
  errors: PdfDownloadErrors,
): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let result: Awaited<ReturnType<typeof reader.read>>;
    try {
      result = await reader.read();
    } catch (error) {
      throw errors.brokenOff(error);
    }
    if (result.done) break;
    total += result.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw errors.tooLarge(total);
    }
    chunks.push(result.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The platform-neutral half of downloading a file someone shared with the bot: once the adapter has
 * fetched from a host it trusts (its own allow-list, its own auth), the response is checked here —
 * status, content type (only where the adapter knows a sign of trouble), declared size, size while
 * streaming (never more than `maxBytes` in memory) and emptiness. What the file is, is left to the
 * ingest's own detection by content (`detectFileKind`), so a wrong type gets the same clear message as
 * from the command line. Each adapter words the errors for its people.
 */
import type { RagentError } from '../../errors.ts';

export interface DownloadErrors {
  /** The host answered something else than 200. */
  status(status: number): RagentError;
  tooLarge(bytes: number): RagentError;
  /** The connection broke off while reading. */
  brokenOff(cause: unknown): RagentError;
  empty(): RagentError;
}

export interface DownloadChecks {
  maxBytes: number;
  /**
   * The error for a response served as this (lower-case, parameters dropped) type, when the adapter
   * knows it for a sign of trouble (a sign-in page instead of the file); undefined lets it through.
   */
  refuseContentType?: (contentType: string) => RagentError | undefined;
}

export async function readDownload(
  response: Response,
  checks: DownloadChecks,
  errors: DownloadErrors,
): Promise<Uint8Array> {
  const { maxBytes } = checks;
  if (response.status !== 200) {
    await response.body?.cancel();
    throw errors.status(response.status);
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const refusal = contentType ? checks.refuseContentType?.(contentType) : undefined;
  if (refusal) {
    await response.body?.cancel();
    throw refusal;
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw errors.tooLarge(declared);
  }
  const bytes = await readCapped(response, maxBytes, errors);
  if (bytes.byteLength === 0) throw errors.empty();
  return bytes;
}

async function readCapped(response: Response, maxBytes: number, errors: DownloadErrors): Promise<Uint8Array> {
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

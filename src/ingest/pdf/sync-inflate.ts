/**
 * pdf.js inflates every page's content stream through the web `DecompressionStream`. In Node 20 that
 * is zlib wrapped in a Node stream wrapped in a web stream pair, built anew for each stream: on a
 * 2,400-page manual the wrapping costs more CPU than the inflating. An extraction worker installs this
 * class in its place (installSyncInflate): the same subset of the web API pdf.js uses (a writer taking
 * one chunk, a readable iterated with `for await`), inflated in one call to zlib. A stream zlib
 * refuses (truncated, damaged, past the size cap) fails the iteration as the web class would, and
 * pdf.js then reads it with its own tolerant decoder.
 */
import { gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

const inflaters = {
  deflate: inflateSync,
  'deflate-raw': inflateRawSync,
  gzip: gunzipSync,
} as const;

type Format = keyof typeof inflaters;

function isFormat(format: string): format is Format {
  return Object.hasOwn(inflaters, format);
}

interface ChunkWriter {
  readonly ready: Promise<void>;
  readonly closed: Promise<void>;
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  releaseLock(): void;
}

export class SyncDecompressionStream {
  readonly writable: { getWriter(): ChunkWriter };
  readonly readable: AsyncIterable<Uint8Array>;

  /** `maxOutputBytes`: a stream inflating past it fails (the worker's limit, see check-streams.ts). */
  constructor(format: string, maxOutputBytes = Number.POSITIVE_INFINITY) {
    // The web class refuses an unknown format (pdf.js asks for "brotli", which Node 20 lacks) here too.
    if (!isFormat(format)) throw new TypeError(`Unsupported compression format: '${format}'`);
    const inflate = inflaters[format];
    const chunks: Uint8Array[] = [];
    let closed = false;
    let onClosed = () => {};
    const whenClosed = new Promise<void>((resolve) => {
      onClosed = resolve;
    });
    const writer: ChunkWriter = {
      ready: Promise.resolve(),
      closed: whenClosed,
      write: async (chunk) => {
        if (closed) throw new TypeError('The stream is closed.');
        chunks.push(chunk);
      },
      close: async () => {
        closed = true;
        onClosed();
      },
      releaseLock: () => {},
    };
    this.writable = { getWriter: () => writer };
    this.readable = {
      async *[Symbol.asyncIterator]() {
        await whenClosed;
        const input = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
        const output = inflate(
          input,
          Number.isFinite(maxOutputBytes) ? { maxOutputLength: maxOutputBytes } : {},
        );
        yield new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
      },
    };
  }
}

/**
 * Replaces `DecompressionStream` in the calling thread — only ever an extraction worker, which runs
 * nothing but pdf.js and our reading code.
 */
export function installSyncInflate(maxOutputBytes: number): void {
  Object.defineProperty(globalThis, 'DecompressionStream', {
    configurable: true,
    writable: true,
    value: class extends SyncDecompressionStream {
      constructor(format: string) {
        super(format, maxOutputBytes);
      }
    },
  });
}

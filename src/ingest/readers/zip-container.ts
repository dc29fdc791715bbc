/**
 * The zip inside every Office file (DOCX, PPTX, XLSX and the OpenDocument formats), opened so that a
 * zip bomb costs nothing: the central directory is read first (fflate's `filter` sees each entry's
 * declared sizes before anything is inflated), and the file is refused when it holds more entries than
 * RAGENT_MAX_ZIP_ENTRIES or declares more than RAGENT_MAX_UNZIPPED_MB in all. fflate inflates an entry
 * into a buffer of its declared size, so an entry that lies about its size is cut there, never grown:
 * what is inflated stays within the checked total.
 */
import { unzipSync } from 'fflate';
import { errorMessages } from '../../error-messages-en.ts';
import { RagentError } from '../../errors.ts';
import { type IngestLimits, tooManyZipEntries, unzippedTooLarge } from '../ingest-limits.ts';

export interface ZipEntry {
  name: string;
  /** Declared uncompressed size. */
  size: number;
}

export class ZipContainer {
  private readonly byName: Map<string, ZipEntry>;

  private constructor(
    private readonly bytes: Uint8Array,
    readonly fileName: string,
    entries: readonly ZipEntry[],
  ) {
    this.byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Lists the entries (inflating nothing) and checks them against the limits. */
  static open(bytes: Uint8Array, fileName: string, limits: IngestLimits): ZipContainer {
    const entries = listEntries(bytes, fileName);
    if (entries.length > limits.maxZipEntries) throw tooManyZipEntries(fileName, entries.length, limits);
    const total = entries.reduce((sum, entry) => sum + entry.size, 0);
    if (total > limits.maxUnzippedBytes) throw unzippedTooLarge(fileName, total, limits);
    return new ZipContainer(bytes, fileName, entries);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Inflates only the named entries (those present); the rest of the file is never inflated. */
  read(names: readonly string[]): Map<string, Uint8Array> {
    const wanted = new Set(names.filter((name) => this.byName.has(name)));
    if (wanted.size === 0) return new Map();
    try {
      return new Map(Object.entries(unzipSync(this.bytes, { filter: (file) => wanted.has(file.name) })));
    } catch (error) {
      throw corruptZip(this.fileName, error);
    }
  }

  /** One entry as text (UTF-8, or UTF-16 with its byte-order mark), or undefined when it is absent. */
  text(name: string): string | undefined {
    const bytes = this.read([name]).get(name);
    return bytes ? decodeXmlText(bytes) : undefined;
  }
}

/** The entries of a zip from its central directory, or undefined when the bytes are not a readable zip. */
export function tryListEntries(bytes: Uint8Array): ZipEntry[] | undefined {
  const entries: ZipEntry[] = [];
  try {
    unzipSync(bytes, {
      filter: (file) => {
        entries.push({ name: file.name, size: file.originalSize });
        return false;
      },
    });
  } catch {
    return undefined;
  }
  return entries;
}

function listEntries(bytes: Uint8Array, fileName: string): ZipEntry[] {
  const entries = tryListEntries(bytes);
  if (!entries) throw corruptZip(fileName);
  return entries;
}

export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function decodeXmlText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
}

export function corruptZip(fileName: string, cause?: unknown): RagentError {
  return new RagentError('OFFICE_CORRUPT', errorMessages.OFFICE_CORRUPT.zipDamaged({ name: fileName }), {
    cause,
  });
}

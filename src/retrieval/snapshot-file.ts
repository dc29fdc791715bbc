/**
 * The search snapshot saved next to the index (`index.sqlite.snapshot`), so a restart loads it in one
 * read instead of rebuilding it from every row. The file records the index's write generation (a counter
 * every write transaction of the store increments, whichever process makes it): a file of another
 * generation is ignored and the snapshot is built from the rows. Layout: "RGS1", a uint32 header length,
 * a JSON header (scope names, and per segment its scalars and the offset and length of each array), then
 * the arrays, each at an 8-byte-aligned offset so they are read back as views without a copy.
 * Written to a temporary file and renamed, so a crash mid-write leaves the old file or none.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { SearchSnapshot } from './search-snapshot.ts';
import type { SegmentParts, SnapshotOptions } from './segment-parts.ts';
import { SnapshotSegment } from './snapshot-segment.ts';
import { ScopeTable, TokenTable } from './snapshot-tables.ts';
import type { Pause } from './work-in-slices.ts';

const magic = 'RGS1';
const arrayTypes = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
} as const;
type ArrayTypeName = keyof typeof arrayTypes;
type TypedArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Uint16Array
  | Int8Array
  | Uint8Array;

interface ArrayEntry {
  type: ArrayTypeName;
  offset: number;
  length: number;
}

interface SegmentHeader {
  size: number;
  dimension: number | null;
  words: number;
  tokens: number;
  arrays: Record<string, ArrayEntry | null>;
}

interface FileHeader {
  generation: string;
  scopes: string[];
  segments: SegmentHeader[];
}

const align = (offset: number) => Math.ceil(offset / 8) * 8;

export async function writeSnapshotFile(
  file: string,
  snapshot: SearchSnapshot,
  generation: string,
): Promise<void> {
  const views: TypedArray[] = [];
  let offset = 0;
  const place = (array: TypedArray | undefined): ArrayEntry | null => {
    if (!array) return null;
    const entry = { type: array.constructor.name as ArrayTypeName, offset, length: array.length };
    views.push(array);
    offset = align(offset + array.byteLength);
    return entry;
  };
  const segments = snapshot.segments.map((segment): SegmentHeader => {
    const { parts, deleted } = segment.contents();
    const table = parts.tokenOrdinals.arrays;
    return {
      size: parts.size,
      dimension: parts.dimension,
      words: parts.words,
      tokens: parts.tokenOrdinals.size,
      arrays: {
        rowids: place(parts.rowids),
        scopeCodes: place(parts.scopeCodes),
        tokenKeys: place(table.keys),
        tokenValues: place(table.values),
        tokenStarts: place(parts.tokenStarts),
        postingPositions: place(parts.postingPositions),
        postingWeights: place(parts.postingWeights),
        hasSparse: place(parts.hasSparse),
        signs: place(parts.signs),
        quantized: place(parts.quantized),
        scales: place(parts.scales),
        hasDense: place(parts.hasDense),
        deleted: place(deleted),
      },
    };
  });
  const header: FileHeader = { generation, scopes: snapshot.scopes.names, segments };
  const headerBytes = Buffer.from(JSON.stringify(header));
  const dataStart = align(8 + headerBytes.byteLength);
  const prefix = Buffer.alloc(dataStart);
  prefix.write(magic, 0, 'latin1');
  prefix.writeUInt32LE(headerBytes.byteLength, 4);
  headerBytes.copy(prefix, 8);
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await open(temporary, 'w');
  try {
    await handle.write(prefix);
    let position = dataStart;
    for (const view of views) {
      const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
      await handle.write(bytes, 0, bytes.byteLength, position);
      position = align(position + bytes.byteLength);
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temporary, file);
}

/**
 * The saved snapshot when the file exists and records `generation`; undefined otherwise. The arrays every
 * search scans whole are read through once, `pause` letting the event loop turn between slices: the first
 * read of freshly loaded memory is slow (page mapping), and would otherwise all fall in the first search.
 */
export async function readSnapshotFile(
  file: string,
  generation: string,
  options: SnapshotOptions,
  pause?: Pause,
): Promise<SearchSnapshot | undefined> {
  // The header first: a stale file is not read whole.
  try {
    const handle = await open(file, 'r');
    try {
      const prefix = Buffer.alloc(8);
      await handle.read(prefix, 0, 8, 0);
      if (prefix.toString('latin1', 0, 4) !== magic) return undefined;
      const length = prefix.readUInt32LE(4);
      if (length > (await handle.stat()).size - 8) return undefined;
      const headerBytes = Buffer.alloc(length);
      await handle.read(headerBytes, 0, length, 8);
      if ((JSON.parse(headerBytes.toString('utf8')) as FileHeader).generation !== generation)
        return undefined;
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    return undefined;
  }
  if (bytes.byteLength < 8 || bytes.toString('latin1', 0, 4) !== magic) return undefined;
  const headerLength = bytes.readUInt32LE(4);
  const header = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength)) as FileHeader;
  if (header.generation !== generation) return undefined;
  const dataStart = align(8 + headerLength);
  // Views need aligned offsets: a Buffer from readFile normally starts at 0 of its own memory.
  const base = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
  const view = <T extends TypedArray>(entry: ArrayEntry | null | undefined): T | undefined => {
    if (!entry) return undefined;
    const Type = arrayTypes[entry.type];
    return new Type(
      base.buffer as ArrayBuffer,
      base.byteOffset + dataStart + entry.offset,
      entry.length,
    ) as T;
  };
  const scopes = new ScopeTable();
  for (const name of header.scopes) scopes.code(name);
  const segments = header.segments.map((segment) => {
    const arrays = segment.arrays;
    const parts: SegmentParts = {
      size: segment.size,
      rowids: view<Float64Array>(arrays.rowids)!,
      scopeCodes: view<Uint16Array>(arrays.scopeCodes)!,
      tokenOrdinals: TokenTable.from(
        view<Uint32Array>(arrays.tokenKeys)!,
        view<Int32Array>(arrays.tokenValues)!,
        segment.tokens,
      ),
      tokenStarts: view<Int32Array>(arrays.tokenStarts)!,
      postingPositions: view<Uint16Array | Int32Array>(arrays.postingPositions)!,
      postingWeights: view<Uint16Array>(arrays.postingWeights)!,
      hasSparse: view<Uint8Array>(arrays.hasSparse)!,
      dimension: segment.dimension,
      words: segment.words,
      signs: view<Int32Array>(arrays.signs),
      quantized: view<Int8Array>(arrays.quantized),
      scales: view<Float32Array>(arrays.scales),
      hasDense: view<Uint8Array>(arrays.hasDense)!,
    };
    return new SnapshotSegment(parts, view<Uint8Array>(arrays.deleted));
  });
  if (pause) {
    for (const segment of segments) {
      const { parts, deleted } = segment.contents();
      for (const array of [parts.signs, parts.hasDense, parts.scopeCodes, parts.hasSparse, deleted]) {
        if (array) await readThrough(array, pause);
      }
    }
  }
  return new SearchSnapshot(scopes, segments, options);
}

/** Reads one byte of every 4 KiB page of the array, pausing between slices of 1 MiB (returns their sum). */
async function readThrough(array: TypedArray, pause: Pause): Promise<number> {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  let sum = 0;
  for (let start = 0; start < bytes.length; start += 1 << 20) {
    const end = Math.min(bytes.length, start + (1 << 20));
    for (let at = start; at < end; at += 4096) sum += bytes[at]!;
    await pause();
  }
  return sum;
}

/**
 * Building one segment of the search snapshot from the store's rows or from pages of the compact vector
 * table. A build never copies its postings whole (they stay in chunks until the inverted index is built)
 * and writes through fresh arrays a step at a time: the first write to a page of new memory is slow, and a
 * block of them would hold the event loop.
 */
import { type SnapshotRow, weightStep } from './segment-parts.ts';
import { SnapshotSegment } from './snapshot-segment.ts';
import { type ScopeTable, TokenTable } from './snapshot-tables.ts';
import { decodeSparseBlob, quantizedDimension, signWords, writeSignWords } from './vector-codec.ts';
import type { VectorPage } from './vector-pages.ts';
import { neverPause, type Pause, runStepsNow } from './work-in-slices.ts';

/** Builds one segment from rows (ascending rowid), pausing between slices when `pause` asks to. */
export async function buildSegment(
  rows: Iterable<SnapshotRow>,
  options: { dimension: number | null; scopes: ScopeTable; expectedSize?: number; pause?: Pause },
): Promise<SnapshotSegment> {
  const pause = options.pause ?? neverPause;
  const builder = new SegmentBuilder(options.dimension, options.scopes, options.expectedSize ?? 1024);
  let count = 0;
  for (const row of rows) {
    builder.add(row);
    // Every 8 rows (a row read from the store can take a fraction of a millisecond, cold).
    if ((++count & 7) === 0) {
      const waiting = pause();
      if (waiting) await waiting;
    }
  }
  return builder.finish(pause);
}

/** Builds one segment from pages of the compact vector table (ascending keys), pausing between pages. */
export async function buildSegmentFromPages(
  pages: Iterable<VectorPage>,
  options: { dimension: number | null; scopes: ScopeTable; expectedSize?: number; pause?: Pause },
): Promise<SnapshotSegment> {
  const pause = options.pause ?? neverPause;
  const builder = new SegmentBuilder(options.dimension, options.scopes, options.expectedSize ?? 1024);
  for (const page of pages) {
    builder.addPage(page);
    await pause();
  }
  return builder.finish(pause);
}

/** The same, synchronously: for the few rows of one written document. */
export function buildSegmentNow(
  rows: readonly SnapshotRow[],
  options: { dimension: number | null; scopes: ScopeTable },
): SnapshotSegment {
  const builder = new SegmentBuilder(options.dimension, options.scopes, rows.length);
  for (const row of rows) builder.add(row);
  return builder.finishSync();
}

/** Postings of consecutive positions: a page's own arrays, or a block filled row by row. */
interface PostingChunk {
  tokens: Uint32Array;
  weights: Float32Array;
  /** Entries used (a row block fills part way). */
  length: number;
  /** Where its first entry falls in the segment's postings (`sparseEnds` counts from there). */
  tokenStart: number;
  positionStart: number;
  positionEnd: number;
  /** A page's arrays (never appended to). */
  page: boolean;
}

/** Entries per block of postings added row by row at most (a row's postings never straddle two blocks). */
const rowBlockTokens = 65_536;

class SegmentBuilder {
  private count = 0;
  private rowids: Float64Array;
  private scopeCodes: Uint16Array;
  /** Each position's end in the postings, counted over all chunks. */
  private sparseEnds: Int32Array;
  /** The postings in chunks (no single large copy as they grow): pages' own arrays, or row blocks. */
  private readonly chunks: PostingChunk[] = [];
  private tokenCount = 0;
  private quantized: Int8Array;
  private scales: Float32Array;
  private signs: Int32Array;
  private hasDense: Uint8Array;
  private readonly words: number;
  private readonly dimension: number;

  constructor(
    dimension: number | null,
    private readonly scopes: ScopeTable,
    capacity: number,
  ) {
    this.dimension = dimension ?? 0;
    this.words = dimension === null ? 0 : signWords(dimension);
    const size = Math.max(1, capacity);
    // Not zeroed at allocation (that would write all of them in one block): `add` and `addPage` write
    // every element of each position they add.
    this.rowids = uninitialized(Float64Array, size);
    this.scopeCodes = uninitialized(Uint16Array, size);
    this.sparseEnds = uninitialized(Int32Array, size);
    this.quantized = uninitialized(Int8Array, size * this.dimension);
    this.scales = uninitialized(Float32Array, size);
    this.signs = uninitialized(Int32Array, size * this.words);
    this.hasDense = uninitialized(Uint8Array, size);
  }

  add(row: SnapshotRow): void {
    if (this.count === this.rowids.length) this.grow(this.count * 2);
    const position = this.count++;
    this.rowids[position] = row.rowid;
    this.scopeCodes[position] = this.scopes.code(row.scope);
    const length = row.sparse ? row.sparse.byteLength / 8 : 0;
    let chunk = this.chunks.at(-1);
    if (!chunk || chunk.page || chunk.length + length > chunk.tokens.length) {
      // About 64 postings per expected row, up to a block: a write of a few rows allocates little.
      const capacity = Math.max(length, Math.min(rowBlockTokens, this.rowids.length * 64));
      chunk = {
        tokens: new Uint32Array(capacity),
        weights: new Float32Array(capacity),
        length: 0,
        tokenStart: this.tokenCount,
        positionStart: position,
        positionEnd: position,
        page: false,
      };
      this.chunks.push(chunk);
    }
    if (length > 0) {
      const vector = decodeSparseBlob(row.sparse!);
      chunk.tokens.set(vector.indices, chunk.length);
      chunk.weights.set(vector.values, chunk.length);
      chunk.length += length;
      this.tokenCount += length;
    }
    chunk.positionEnd = position + 1;
    this.sparseEnds[position] = this.tokenCount;
    const dimension = this.dimension;
    if (dimension > 0 && row.quantized && quantizedDimension(row.quantized) === dimension) {
      const blob = row.quantized;
      this.scales[position] = new DataView(blob.buffer, blob.byteOffset, 4).getFloat32(0, true);
      const values = new Int8Array(blob.buffer, blob.byteOffset + 4, dimension);
      this.quantized.set(values, position * dimension);
      writeSignWords(values, this.signs, position * this.words);
      this.hasDense[position] = 1;
    } else this.clearDense(position, position + 1);
  }

  /** Zeros the dense part of positions without a dense vector. */
  private clearDense(start: number, end: number): void {
    this.hasDense.fill(0, start, end);
    this.scales.fill(0, start, end);
    this.quantized.fill(0, start * this.dimension, end * this.dimension);
    this.signs.fill(0, start * this.words, end * this.words);
  }

  /** A whole page of the compact vector table (keys above every child added so far), in bulk copies. */
  addPage(page: VectorPage): void {
    const start = this.count;
    const end = start + page.count;
    if (end > this.rowids.length) this.grow(Math.max(end, this.rowids.length * 2));
    this.rowids.set(page.keys, start);
    this.scopeCodes.fill(this.scopes.code(page.scope), start, end);
    // The page's own arrays become a chunk (pass 1 overwrites its token ids with ordinals): no copy.
    this.chunks.push({
      tokens: page.tokens,
      weights: page.weights,
      length: page.tokens.length,
      tokenStart: this.tokenCount,
      positionStart: start,
      positionEnd: end,
      page: true,
    });
    for (let at = 0; at < page.count; at++)
      this.sparseEnds[start + at] = this.tokenCount + page.sparseEnds[at]!;
    this.tokenCount += page.tokens.length;
    const dimension = this.dimension;
    if (dimension > 0 && page.dimension === dimension && page.quantized && page.scales && page.signs) {
      this.quantized.set(page.quantized, start * dimension);
      this.scales.set(page.scales, start);
      this.signs.set(page.signs, start * this.words);
      this.hasDense.fill(1, start, end);
    } else this.clearDense(start, end);
    this.count = end;
  }

  async finish(pause: Pause): Promise<SnapshotSegment> {
    const steps = this.steps();
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      await pause();
    }
  }

  finishSync(): SnapshotSegment {
    return runStepsNow(this.steps());
  }

  /** Builds the inverted index in two passes over the postings; yields every few thousand children. */
  private *steps(): Generator<void, SnapshotSegment> {
    const size = this.count;
    const ordinals = new TokenTable(4096);
    let counts = new Int32Array(1024);
    const sparseEnds = this.sparseEnds;
    for (const { tokens, tokenStart, positionStart, positionEnd } of this.chunks) {
      for (let position = positionStart, slot = 0; position < positionEnd; position++) {
        for (const end = sparseEnds[position]! - tokenStart; slot < end; slot++) {
          const ordinal = ordinals.add(tokens[slot]!);
          if (ordinal === counts.length) counts = copyInto(new Int32Array(ordinal * 2), counts);
          counts[ordinal]!++;
          tokens[slot] = ordinal;
        }
        if ((position & 255) === 255) yield;
      }
    }
    const tokenStarts = new Int32Array(ordinals.size + 1);
    for (let ordinal = 0, offset = 0; ordinal < ordinals.size; ordinal++) {
      tokenStarts[ordinal] = offset;
      offset += counts[ordinal]!;
      tokenStarts[ordinal + 1] = offset;
    }
    const fill = tokenStarts.slice(0, ordinals.size);
    // Positions fit 16 bits in a segment of up to 65,536 children (the default): 2 bytes per posting saved.
    const postingPositions =
      size <= 65_536
        ? uninitialized(Uint16Array, this.tokenCount)
        : uninitialized(Int32Array, this.tokenCount);
    const postingWeights = uninitialized(Uint16Array, this.tokenCount);
    // Pass 2 writes these at scattered places (each element once): write them through a step at a time
    // first, so that the first writes to their fresh pages do not all fall in pass 2's first step.
    yield* touchInSteps(postingPositions);
    yield* touchInSteps(postingWeights);
    const hasSparse = new Uint8Array(size);
    for (const { tokens, weights, tokenStart, positionStart, positionEnd } of this.chunks) {
      for (let position = positionStart, slot = 0; position < positionEnd; position++) {
        const end = sparseEnds[position]! - tokenStart;
        if (end > slot) hasSparse[position] = 1;
        for (; slot < end; slot++) {
          const at = fill[tokens[slot]!]!++;
          postingPositions[at] = position;
          postingWeights[at] = Math.min(65_535, Math.round(weights[slot]! / weightStep));
        }
        if ((position & 255) === 255) yield;
      }
    }
    this.chunks.length = 0;
    const anyDense = this.hasDense.subarray(0, size).includes(1);
    return new SnapshotSegment({
      size,
      rowids: this.rowids.slice(0, size),
      scopeCodes: this.scopeCodes.slice(0, size),
      tokenOrdinals: ordinals,
      tokenStarts,
      postingPositions,
      postingWeights,
      hasSparse,
      dimension: anyDense ? this.dimension : null,
      words: this.words,
      signs: anyDense ? trimmed(this.signs, size * this.words) : undefined,
      quantized: anyDense ? trimmed(this.quantized, size * this.dimension) : undefined,
      scales: anyDense ? trimmed(this.scales, size) : undefined,
      hasDense: this.hasDense.slice(0, size),
    });
  }

  private grow(capacity: number): void {
    this.rowids = copyInto(new Float64Array(capacity), this.rowids);
    this.scopeCodes = copyInto(new Uint16Array(capacity), this.scopeCodes);
    this.sparseEnds = copyInto(new Int32Array(capacity), this.sparseEnds);
    this.quantized = copyInto(new Int8Array(capacity * this.dimension), this.quantized);
    this.scales = copyInto(new Float32Array(capacity), this.scales);
    this.signs = copyInto(new Int32Array(capacity * this.words), this.signs);
    this.hasDense = copyInto(new Uint8Array(capacity), this.hasDense);
  }
}

function copyInto<T extends { set(source: ArrayLike<number>): void }>(
  target: T,
  source: ArrayLike<number>,
): T {
  target.set(source);
  return target;
}

/**
 * A typed array over fresh memory that is not zeroed (a large zeroed allocation writes all of its pages
 * at once, in one block of the event loop); the caller writes every element before reading it.
 */
function uninitialized<T>(
  Type: { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  const bytes = Buffer.allocUnsafeSlow(length * Type.BYTES_PER_ELEMENT);
  return new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, length);
}

/** Writes zeros over a fresh array 256 KiB at a time (its first write to each page faults it in). */
function* touchInSteps(array: Uint16Array | Int32Array): Generator<void, void> {
  const perStep = (256 * 1024) / array.BYTES_PER_ELEMENT;
  for (let at = 0; at < array.length; at += perStep) {
    array.fill(0, at, at + perStep);
    yield;
  }
}

/** The array itself when it is exactly `length` long (no copy), else a trimmed copy. */
function trimmed<T extends Int8Array | Int32Array | Float32Array>(array: T, length: number): T {
  return (array.length === length ? array : array.slice(0, length)) as T;
}

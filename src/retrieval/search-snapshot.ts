/**
 * An in-memory picture of every child's vectors, so that hybrid search never touches the disk. It is a
 * list of segments: one large segment built from the store (in slices that yield to the event loop, see
 * `buildSegment`) and small ones added after each write, with deleted children marked in place; the
 * store merges them back into one segment in the background when there are too many
 * (sqlite-snapshot-refresh.ts). Per segment:
 * - sparse: an inverted index (token → positions + BM25 document weights) in typed arrays; IDF is
 *   computed per query over the live children of the caller's scopes in every segment:
 *   ln(1 + (N − df + 0.5) / (df + 0.5)), as Qdrant's `idf` modifier does;
 * - dense: int8-quantised vectors (1 byte per dimension) and their sign bits, and nothing else (no
 *   float32 copy): a small segment is scored whole with the int8 vectors; above `exactLimit`, Hamming
 *   passes over the sign bits pick a few hundred candidates, which are rescored with the int8 vectors
 *   (cosine error well under 1 %).
 * Every scan skips positions whose scope the caller may not see, and deleted positions. A search is a
 * generator with one step per segment, so that the store can let the event loop turn between segments.
 * Building a segment never copies its postings whole (they stay in chunks until the inverted index is
 * built) and writes through fresh arrays a step at a time: the first write to a page of new memory is
 * slow, and a block of them would hold the event loop.
 */
import type { SparseVector } from '../core/types.ts';
import { bm25Parameters } from './bm25.ts';
import { topK } from './top-k.ts';
import { decodeSparseBlob, quantizedDimension, signCode, signWords, writeSignWords } from './vector-codec.ts';
import type { VectorPage } from './vector-pages.ts';

/** BM25 document weights (at most k1 + 1) are kept as 16-bit fixed point: 1/65535 of k1 + 1 per step. */
const weightStep = (bm25Parameters.k1 + 1) / 65_535;

export interface SnapshotRow {
  rowid: number;
  scope: string;
  sparse: Uint8Array | null;
  /** The int8 blob of vector-codec (`encodeQuantizedBlob`), or null for a BM25-only child. */
  quantized: Uint8Array | null;
}

export interface SnapshotOptions {
  dimension: number | null;
  /** Segments with up to this many vectors are scored whole with int8; above, sign-bit pre-selection. */
  exactLimit: number;
  /** How many Hamming candidates are rescored with int8 vectors above `exactLimit`. */
  rescoreCandidates: number;
}

/** A child found by a search: its store row id and score. */
export interface Scored {
  rowid: number;
  score: number;
}

/** Scope names ↔ small codes, shared by every segment of a snapshot so one mask serves them all. */
export class ScopeTable {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.codes.set(name, code);
    }
    return code;
  }
}

/**
 * Token id → ordinal, open addressing over typed arrays: a `Map` is several times slower here, because
 * half of the 31-bit token ids do not fit V8's small integers.
 */
export class TokenTable {
  size = 0;
  private keys: Uint32Array;
  private values: Int32Array;
  private shift: number;

  constructor(expected = 512) {
    let bits = 4;
    while (1 << bits < expected * 2) bits++;
    this.keys = new Uint32Array(1 << bits);
    this.values = new Int32Array(1 << bits).fill(-1);
    this.shift = 32 - bits;
  }

  /** Its arrays, for the snapshot file. */
  get arrays(): { keys: Uint32Array; values: Int32Array } {
    return { keys: this.keys, values: this.values };
  }

  /** A table from the arrays of `arrays` (as read back from the snapshot file). */
  static from(keys: Uint32Array, values: Int32Array, size: number): TokenTable {
    const table = new TokenTable(1);
    table.keys = keys;
    table.values = values;
    table.size = size;
    table.shift = 32 - Math.log2(values.length);
    return table;
  }

  /** The ordinal of the token, or -1. */
  get(token: number): number {
    const mask = this.values.length - 1;
    for (let slot = Math.imul(token, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value === -1 || this.keys[slot] === token) return value;
    }
  }

  /** The ordinal of the token, numbering it next when it is new. */
  add(token: number): number {
    const mask = this.values.length - 1;
    for (let slot = Math.imul(token, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const value = this.values[slot]!;
      if (value !== -1 && this.keys[slot] !== token) continue;
      if (value !== -1) return value;
      this.keys[slot] = token;
      this.values[slot] = this.size;
      if (++this.size * 2 > this.values.length) this.grow();
      return this.size - 1;
    }
  }

  byteSize(): number {
    return this.keys.byteLength + this.values.byteLength;
  }

  private grow(): void {
    const { keys, values } = this;
    this.keys = new Uint32Array(keys.length * 2);
    this.values = new Int32Array(values.length * 2).fill(-1);
    this.shift--;
    const mask = this.values.length - 1;
    for (let old = 0; old < values.length; old++) {
      if (values[old] === -1) continue;
      let slot = Math.imul(keys[old]!, 0x9e3779b1) >>> this.shift;
      while (this.values[slot] !== -1) slot = (slot + 1) & mask;
      this.keys[slot] = keys[old]!;
      this.values[slot] = values[old]!;
    }
  }
}

/** Passes control back to the event loop when a slice of work has run `sliceMs`. */
export type Pause = () => Promise<void> | undefined;

export function slicePause(sliceMs: number): Pause {
  let sliceStarted = performance.now();
  return () => {
    if (performance.now() - sliceStarted < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStarted = performance.now();
        resolve();
      }),
    );
  };
}

const neverPause: Pause = () => undefined;

/** Runs the steps of a generator, passing control back to the event loop between two when `pause` asks. */
export async function runSteps<T>(steps: Generator<void, T>, pause: Pause): Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    const waiting = pause();
    if (waiting) await waiting;
  }
}

/** Runs every step of a generator at once (nothing else runs meanwhile). */
export function runStepsNow<T>(steps: Generator<void, T>): T {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

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

export interface SegmentParts {
  size: number;
  rowids: Float64Array;
  scopeCodes: Uint16Array;
  tokenOrdinals: TokenTable;
  tokenStarts: Int32Array;
  /** 16-bit in segments of up to 65,536 children (32-bit in snapshot files saved before). */
  postingPositions: Uint16Array | Int32Array;
  /** 16-bit fixed point, see `weightStep`. */
  postingWeights: Uint16Array;
  hasSparse: Uint8Array;
  dimension: number | null;
  words: number;
  signs: Int32Array | undefined;
  quantized: Int8Array | undefined;
  scales: Float32Array | undefined;
  hasDense: Uint8Array;
}

/** One immutable run of children (ascending row ids) plus a mutable "deleted" mark per position. */
export class SnapshotSegment {
  readonly size: number;
  private readonly parts: SegmentParts;
  private readonly deleted: Uint8Array;
  private deletedCount = 0;
  private readonly frequencies = new Map<number, Uint32Array>();
  private readonly visibleByMask = new Map<string, Int32Array>();
  private sparseCounts: Uint32Array | undefined;

  constructor(parts: SegmentParts, deleted?: Uint8Array) {
    this.parts = parts;
    this.size = parts.size;
    this.deleted = deleted ?? new Uint8Array(parts.size);
    if (deleted) for (const mark of deleted) this.deletedCount += mark;
  }

  /** What the snapshot file stores of it. */
  contents(): { parts: SegmentParts; deleted: Uint8Array } {
    return { parts: this.parts, deleted: this.deleted };
  }

  get dimension(): number | null {
    return this.parts.dimension;
  }

  get liveCount(): number {
    return this.size - this.deletedCount;
  }

  /** Bytes held by the typed arrays. */
  byteSize(): number {
    const parts = this.parts;
    const arrays = [
      parts.rowids,
      parts.scopeCodes,
      parts.tokenStarts,
      parts.postingPositions,
      parts.postingWeights,
      parts.hasSparse,
      parts.signs,
      parts.quantized,
      parts.scales,
      parts.hasDense,
      this.deleted,
    ];
    return arrays.reduce((sum, array) => sum + (array?.byteLength ?? 0), parts.tokenOrdinals.byteSize());
  }

  /** Marks the child with this row id deleted; false when this segment does not hold it (alive). */
  markDeleted(rowid: number): boolean {
    const rowids = this.parts.rowids;
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = rowids[middle]!;
      if (value < rowid) low = middle + 1;
      else if (value > rowid) high = middle - 1;
      else {
        if (this.deleted[middle]) return false;
        this.deleted[middle] = 1;
        this.deletedCount++;
        this.frequencies.clear();
        this.visibleByMask.clear();
        this.sparseCounts = undefined;
        return true;
      }
    }
    return false;
  }

  /** Live children with a sparse vector, per scope code. */
  sparseCountByScope(scopeCount: number): Uint32Array {
    if (!this.sparseCounts || this.sparseCounts.length < scopeCount) {
      const counts = new Uint32Array(scopeCount);
      for (let position = 0; position < this.size; position++) {
        if (this.parts.hasSparse[position] && !this.deleted[position])
          counts[this.parts.scopeCodes[position]!]!++;
      }
      this.sparseCounts = counts;
    }
    return this.sparseCounts;
  }

  /** How many live children of each scope hold the token (cached per token until a deletion). */
  frequencyByScope(token: number, scopeCount: number): Uint32Array | undefined {
    const ordinal = this.parts.tokenOrdinals.get(token);
    if (ordinal === -1) return undefined;
    let counts = this.frequencies.get(ordinal);
    if (!counts || counts.length < scopeCount) {
      counts = new Uint32Array(scopeCount);
      const { tokenStarts, postingPositions, scopeCodes } = this.parts;
      const end = tokenStarts[ordinal + 1]!;
      for (let slot = tokenStarts[ordinal]!; slot < end; slot++) {
        const position = postingPositions[slot]!;
        if (!this.deleted[position]) counts[scopeCodes[position]!]!++;
      }
      this.frequencies.set(ordinal, counts);
    }
    return counts;
  }

  /** Adds weight × BM25 weight of every live allowed posting of each term; returns the best `limit`. */
  searchSparse(
    tokens: ArrayLike<number>,
    termWeights: Float64Array,
    allowed: Uint8Array,
    limit: number,
    scratch: Scratch,
  ): Scored[] {
    const { tokenOrdinals, tokenStarts, postingPositions, postingWeights, scopeCodes } = this.parts;
    const scores = scratch.scores;
    const touched = scratch.touched;
    let touchedCount = 0;
    for (let term = 0; term < tokens.length; term++) {
      const weight = termWeights[term]! * weightStep;
      if (weight === 0) continue;
      const ordinal = tokenOrdinals.get(tokens[term]!);
      if (ordinal === -1) continue;
      const end = tokenStarts[ordinal + 1]!;
      for (let slot = tokenStarts[ordinal]!; slot < end; slot++) {
        const position = postingPositions[slot]!;
        if (allowed[scopeCodes[position]!] !== 1 || this.deleted[position]) continue;
        if (scores[position] === 0) touched[touchedCount++] = position;
        scores[position]! += weight * postingWeights[slot]!;
      }
    }
    const best = topK(touched, touchedCount, (position) => scores[position]!, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index]!] = 0;
    return best.map(({ position, score }) => ({ rowid: this.parts.rowids[position]!, score }));
  }

  /** The best `limit` by cosine; a step ends after the first Hamming pass (a scan of every vector). */
  *searchDense(
    query: DenseQuery,
    allowed: Uint8Array,
    limit: number,
    options: SnapshotOptions,
  ): Generator<void, Scored[]> {
    const parts = this.parts;
    if (parts.dimension === null || query.values.length !== parts.dimension || !parts.signs) return [];
    const positions = this.visiblePositions(allowed);
    const wanted = Math.max(limit, options.rescoreCandidates);
    let finalists = positions;
    if (positions.length > options.exactLimit && positions.length > wanted) {
      const queryCode = query.code;
      let candidates = positions;
      // A first pass over the leading 256 bits of every vector (read in order, which the memory
      // prefetcher likes), a second over all bits of the few thousand kept.
      if (coarseWords < parts.words && positions.length > wanted * 8) {
        candidates = nearestBySigns(parts.signs, parts.words, coarseWords, positions, queryCode, wanted * 8);
        yield;
      }
      finalists = nearestBySigns(parts.signs, parts.words, parts.words, candidates, queryCode, wanted);
    }
    const quantized = parts.quantized!;
    const scales = parts.scales!;
    const dimension = parts.dimension;
    const values = query.values;
    const best = topK(
      finalists,
      finalists.length,
      (position) => {
        const base = position * dimension;
        let sum0 = 0;
        let sum1 = 0;
        let sum2 = 0;
        let sum3 = 0;
        let index = 0;
        for (; index + 3 < dimension; index += 4) {
          sum0 += values[index]! * quantized[base + index]!;
          sum1 += values[index + 1]! * quantized[base + index + 1]!;
          sum2 += values[index + 2]! * quantized[base + index + 2]!;
          sum3 += values[index + 3]! * quantized[base + index + 3]!;
        }
        for (; index < dimension; index++) sum0 += values[index]! * quantized[base + index]!;
        return (sum0 + sum1 + sum2 + sum3) * scales[position]!;
      },
      limit,
    );
    return best.map(({ position, score }) => ({ rowid: parts.rowids[position]!, score }));
  }

  /** Live positions with a dense vector in the allowed scopes (cached per scope mask until a deletion). */
  private visiblePositions(allowed: Uint8Array): Int32Array {
    const key = allowed.join('');
    const cached = this.visibleByMask.get(key);
    if (cached) return cached;
    const { hasDense, scopeCodes } = this.parts;
    const positions = new Int32Array(this.size);
    let count = 0;
    for (let position = 0; position < this.size; position++) {
      if (hasDense[position] && !this.deleted[position] && allowed[scopeCodes[position]!] === 1)
        positions[count++] = position;
    }
    const visible = positions.slice(0, count);
    if (this.visibleByMask.size >= 16) this.visibleByMask.clear();
    this.visibleByMask.set(key, visible);
    return visible;
  }
}

interface Scratch {
  scores: Float32Array;
  touched: Int32Array;
}

/** The segments searched together, with one scope table and one scratch buffer. */
export class SearchSnapshot {
  readonly options: SnapshotOptions;
  readonly scopes: ScopeTable;
  private segmentList: SnapshotSegment[];
  private scratch: Scratch = { scores: new Float32Array(0), touched: new Int32Array(0) };
  private changeCount = 0;

  constructor(scopes: ScopeTable, segments: SnapshotSegment[], options: SnapshotOptions) {
    this.scopes = scopes;
    this.options = options;
    this.segmentList = [];
    for (const segment of segments) this.addSegment(segment);
  }

  get segments(): readonly SnapshotSegment[] {
    return this.segmentList;
  }

  /** Bumped by every segment added and child marked deleted (a search that paused can tell). */
  get changes(): number {
    return this.changeCount;
  }

  /** Live children in every segment. */
  get size(): number {
    return this.segmentList.reduce((sum, segment) => sum + segment.liveCount, 0);
  }

  byteSize(): number {
    return this.segmentList.reduce(
      (sum, segment) => sum + segment.byteSize(),
      this.scratch.scores.byteLength + this.scratch.touched.byteLength,
    );
  }

  addSegment(segment: SnapshotSegment): void {
    if (segment.size === 0) return;
    this.changeCount++;
    this.segmentList.push(segment);
    if (segment.size > this.scratch.scores.length) {
      this.scratch = { scores: new Float32Array(segment.size), touched: new Int32Array(segment.size) };
    }
  }

  /** Marks children deleted by row id; returns how many were live here. */
  markDeleted(rowids: Iterable<number>): number {
    let marked = 0;
    for (const rowid of rowids) {
      for (const segment of this.segmentList) {
        if (segment.markDeleted(rowid)) {
          this.changeCount++;
          marked++;
          break;
        }
      }
    }
    return marked;
  }

  /** A mask over scope codes: 1 where the caller may see the scope. */
  allowedScopes(scopes: readonly string[]): Uint8Array {
    const wanted = new Set(scopes);
    return Uint8Array.from(this.scopes.names, (name) => (wanted.has(name) ? 1 : 0));
  }

  /**
   * The best `limit` by BM25, a segment per step (see `runSteps`: a large snapshot need not be scanned
   * in one block). A write applied between two steps shows in `changes`.
   */
  *searchSparse(query: SparseVector, allowed: Uint8Array, limit: number): Generator<void, Scored[]> {
    const scopeCount = this.scopes.names.length;
    let visible = 0;
    for (const segment of this.segmentList)
      visible += sumAllowed(segment.sparseCountByScope(scopeCount), allowed);
    if (visible === 0) return [];
    const termWeights = new Float64Array(query.indices.length);
    for (let term = 0; term < query.indices.length; term++) {
      let documentFrequency = 0;
      for (const segment of this.segmentList) {
        const counts = segment.frequencyByScope(query.indices[term]!, scopeCount);
        if (counts) documentFrequency += sumAllowed(counts, allowed);
      }
      if (documentFrequency === 0) continue;
      const idf = Math.log(1 + (visible - documentFrequency + 0.5) / (documentFrequency + 0.5));
      termWeights[term] = (query.values[term] ?? 1) * idf;
    }
    const lists: Scored[][] = [];
    for (const segment of [...this.segmentList]) {
      lists.push(segment.searchSparse(query.indices, termWeights, allowed, limit, this.scratch));
      yield;
    }
    return merged(lists, limit);
  }

  /** The best `limit` by cosine, in steps of about half a segment (see `searchSparse`). */
  *searchDense(query: Float32Array, allowed: Uint8Array, limit: number): Generator<void, Scored[]> {
    const prepared = denseQuery(query);
    const lists: Scored[][] = [];
    for (const segment of [...this.segmentList]) {
      lists.push(yield* segment.searchDense(prepared, allowed, limit, this.options));
      yield;
    }
    return merged(lists, limit);
  }
}

/**
 * A dense query prepared once for every segment: its values as float64 (no float32 → float64
 * conversion per multiplication in the rescoring loop) and its sign code.
 */
interface DenseQuery {
  values: Float64Array;
  code: Int32Array;
}

function denseQuery(query: Float32Array): DenseQuery {
  return { values: Float64Array.from(query), code: new Int32Array(signCode(query).buffer) };
}

/** Sign words of the first Hamming pass (256 dimensions). */
const coarseWords = 8;

function merged(lists: Scored[][], limit: number): Scored[] {
  if (lists.length === 1) return lists[0]!;
  return lists
    .flat()
    .sort((left, right) => right.score - left.score || left.rowid - right.rowid)
    .slice(0, limit);
}

function sumAllowed(countsByScope: Uint32Array, allowed: Uint8Array): number {
  let sum = 0;
  for (let code = 0; code < countsByScope.length; code++) if (allowed[code]) sum += countsByScope[code]!;
  return sum;
}

/**
 * The about-`wanted` positions whose first `words` sign words (of `stride` per vector in `signs`) are
 * nearest the query's in Hamming distance; a histogram of the distances gives the cut-off, so nothing is
 * sorted. The first words hold the leading dimensions, which carry the most information in
 * Matryoshka-trained models, so a pass over 8 words is a good first cut.
 */
function nearestBySigns(
  signs: Int32Array,
  stride: number,
  words: number,
  positions: Int32Array,
  queryCode: Int32Array,
  wanted: number,
): Int32Array {
  const distances = new Uint16Array(positions.length);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let index = 0; index < positions.length; index++) {
    let slot = positions[index]! * stride;
    let distance = 0;
    for (let word = 0; word < words; word++) {
      let bits = signs[slot++]! ^ queryCode[word]!;
      bits -= (bits >>> 1) & 0x55555555;
      bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
      distance += Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    distances[index] = distance;
    histogram[distance]!++;
  }
  let cutoff = 0;
  for (let seen = 0; cutoff < histogram.length; cutoff++) {
    seen += histogram[cutoff]!;
    if (seen >= wanted) break;
  }
  const chosen = new Int32Array(Math.min(positions.length, wanted * 2));
  let count = 0;
  for (let index = 0; index < positions.length && count < chosen.length; index++) {
    if (distances[index]! <= cutoff) chosen[count++] = positions[index]!;
  }
  return chosen.subarray(0, count);
}

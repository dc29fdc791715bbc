/**
 * One segment of the search snapshot: an immutable run of children with their sparse postings and int8 /
 * sign-bit vectors, a "deleted" mark per position, and the scans of one search over it (BM25 with IDF over
 * the caller's scopes; dense scored whole, or pre-selected by Hamming distance of the sign bits and rescored).
 */
import { type Scored, type SegmentParts, type SnapshotOptions, weightStep } from './segment-parts.ts';
import { topK } from './top-k.ts';

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

export interface Scratch {
  scores: Float32Array;
  touched: Int32Array;
}

/**
 * A dense query prepared once for every segment: its values as float64 (no float32 → float64
 * conversion per multiplication in the rescoring loop) and its sign code.
 */
export interface DenseQuery {
  values: Float64Array;
  code: Int32Array;
}

/** Sign words of the first Hamming pass (256 dimensions). */
const coarseWords = 8;

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

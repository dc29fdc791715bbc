/**
 * An in-memory, read-only picture of every child's vectors, built from the SQLite store on the first
 * search and rebuilt after any write (the store tracks `PRAGMA data_version`, so writes by another
 * process count too). It answers both halves of hybrid search without touching the disk:
 * - sparse: an inverted index (token → positions + BM25 document weights) in typed arrays; IDF is
 *   computed per query over the children of the caller's scopes: ln(1 + (N − df + 0.5) / (df + 0.5)),
 *   as Qdrant's `idf` modifier does;
 * - dense: an exact float dot-product scan while the index is small; above `exactLimit` vectors, the
 *   snapshot keeps int8-quantised vectors (1 byte per dimension) and their sign bits: Hamming passes over
 *   the sign bits pick a few hundred candidates, which are rescored with the int8 vectors (cosine
 *   error well under 1 %), so no disk access is needed at query time.
 * Every scan skips positions whose scope the caller may not see.
 */
import type { SparseVector } from '../core/types.ts';
import { topK } from './top-k.ts';
import {
  decodeDenseBlob,
  decodeSparseBlob,
  dot,
  quantizedDimension,
  signCode,
  signWords,
} from './vector-codec.ts';

export interface SnapshotRow {
  rowid: number;
  scope: string;
  sparse: Uint8Array | null;
  dense: Uint8Array | null;
  /** Read only above `exactLimit` (see sqlite-chunk-index). */
  quantized: Uint8Array | null;
}

export interface SnapshotOptions {
  dimension: number | null;
  /** Up to this many dense vectors are kept whole in memory and scanned exactly. */
  exactLimit: number;
  /** How many Hamming candidates are rescored with int8 vectors above `exactLimit`. */
  rescoreCandidates: number;
}

export interface Scored {
  position: number;
  score: number;
}

export class SearchSnapshot {
  readonly size: number;
  private readonly rowids: Float64Array;
  private readonly scopeCodes: Uint16Array;
  private readonly scopeNames: string[];
  private readonly tokenOrdinals: Map<number, number>;
  private readonly tokenStarts: Int32Array;
  private readonly postingPositions: Int32Array;
  private readonly postingWeights: Float32Array;
  private readonly hasSparse: Uint8Array;
  private readonly hasDense: Uint8Array;
  private readonly dimension: number | null;
  private readonly exact: Float32Array | undefined;
  private readonly signs: Int32Array | undefined;
  /** The first `coarseWords` sign words of every vector, packed together for a cache-friendly first pass. */
  private readonly coarseSigns: Int32Array | undefined;
  private readonly coarseWords: number;
  private readonly quantized: Int8Array | undefined;
  private readonly quantizedScales: Float32Array | undefined;
  private readonly words: number;
  private readonly options: SnapshotOptions;
  private readonly scores: Float64Array;
  private readonly touched: Int32Array;
  private readonly sparseCountByScope: Uint32Array;
  private readonly frequencies = new Map<number, Uint32Array>();
  private readonly visibleByMask = new Map<string, Int32Array>();

  constructor(rows: Iterable<SnapshotRow>, options: SnapshotOptions) {
    this.options = options;
    this.dimension = options.dimension;
    const collected: SnapshotRow[] = [];
    for (const row of rows) collected.push(row);
    const size = collected.length;
    this.size = size;
    this.rowids = new Float64Array(size);
    this.scopeCodes = new Uint16Array(size);
    this.scopeNames = [];
    this.hasSparse = new Uint8Array(size);
    this.hasDense = new Uint8Array(size);
    this.scores = new Float64Array(size);
    this.touched = new Int32Array(size);
    const scopeIndex = new Map<string, number>();
    const decoded: ({ indices: Uint32Array; values: Float32Array } | undefined)[] = new Array(size);
    const tokenCounts = new Map<number, number>();
    let denseCount = 0;
    collected.forEach((row, position) => {
      this.rowids[position] = row.rowid;
      let code = scopeIndex.get(row.scope);
      if (code === undefined) {
        code = this.scopeNames.length;
        this.scopeNames.push(row.scope);
        scopeIndex.set(row.scope, code);
      }
      this.scopeCodes[position] = code;
      if (row.sparse && row.sparse.byteLength > 0) {
        const vector = decodeSparseBlob(row.sparse);
        decoded[position] = vector;
        this.hasSparse[position] = 1;
        for (const token of vector.indices) tokenCounts.set(token, (tokenCounts.get(token) ?? 0) + 1);
      }
      if ((row.dense && row.dense.byteLength > 0) || (row.quantized && row.quantized.byteLength > 0))
        denseCount++;
    });

    this.sparseCountByScope = new Uint32Array(this.scopeNames.length);
    for (let position = 0; position < size; position++) {
      if (this.hasSparse[position]) this.sparseCountByScope[this.scopeCodes[position]!]!++;
    }
    this.tokenOrdinals = new Map();
    this.tokenStarts = new Int32Array(tokenCounts.size + 1);
    let offset = 0;
    let ordinal = 0;
    for (const [token, count] of tokenCounts) {
      this.tokenOrdinals.set(token, ordinal);
      this.tokenStarts[ordinal++] = offset;
      offset += count;
    }
    this.tokenStarts[ordinal] = offset;
    this.postingPositions = new Int32Array(offset);
    this.postingWeights = new Float32Array(offset);
    const fill = this.tokenStarts.slice(0, ordinal);
    decoded.forEach((vector, position) => {
      if (!vector) return;
      for (let index = 0; index < vector.indices.length; index++) {
        const tokenOrdinal = this.tokenOrdinals.get(vector.indices[index]!)!;
        const slot = fill[tokenOrdinal]!++;
        this.postingPositions[slot] = position;
        this.postingWeights[slot] = vector.values[index]!;
      }
    });

    this.words = this.dimension === null ? 0 : signWords(this.dimension);
    this.coarseWords = Math.min(this.words, 8);
    const dimension = this.dimension;
    if (dimension !== null && denseCount > 0 && denseCount <= options.exactLimit) {
      const exact = new Float32Array(size * dimension);
      collected.forEach((row, position) => {
        if (!row.dense || row.dense.byteLength !== dimension * 4) return;
        exact.set(decodeDenseBlob(row.dense), position * dimension);
        this.hasDense[position] = 1;
      });
      this.exact = exact;
    } else if (dimension !== null && denseCount > 0) {
      const words = this.words;
      const signs = new Int32Array(size * words);
      const coarseWords = this.coarseWords;
      const coarse = new Int32Array(size * coarseWords);
      const quantized = new Int8Array(size * dimension);
      const scales = new Float32Array(size);
      const word = new Uint32Array(words);
      collected.forEach((row, position) => {
        if (!row.quantized || quantizedDimension(row.quantized) !== dimension) return;
        const blob = row.quantized;
        scales[position] = new DataView(blob.buffer, blob.byteOffset, 4).getFloat32(0, true);
        const values = new Int8Array(blob.buffer, blob.byteOffset + 4, dimension);
        quantized.set(values, position * dimension);
        word.fill(0);
        for (let index = 0; index < dimension; index++) {
          if (values[index]! > 0) word[index >>> 5]! |= 1 << (index & 31);
        }
        signs.set(new Int32Array(word.buffer), position * words);
        coarse.set(new Int32Array(word.buffer, 0, coarseWords), position * coarseWords);
        this.hasDense[position] = 1;
      });
      this.signs = signs;
      this.coarseSigns = coarse;
      this.quantized = quantized;
      this.quantizedScales = scales;
    }
  }

  rowidAt(position: number): number {
    return this.rowids[position]!;
  }

  /** A mask over scope codes: 1 where the caller may see the scope. */
  allowedScopes(scopes: readonly string[]): Uint8Array {
    const wanted = new Set(scopes);
    return Uint8Array.from(this.scopeNames, (name) => (wanted.has(name) ? 1 : 0));
  }

  searchSparse(query: SparseVector, allowed: Uint8Array, limit: number): Scored[] {
    const visible = sumAllowed(this.sparseCountByScope, allowed);
    if (visible === 0) return [];
    const scores = this.scores;
    const touched = this.touched;
    let touchedCount = 0;
    for (let term = 0; term < query.indices.length; term++) {
      const ordinal = this.tokenOrdinals.get(query.indices[term]!);
      if (ordinal === undefined) continue;
      const documentFrequency = sumAllowed(this.frequencyByScope(ordinal), allowed);
      if (documentFrequency === 0) continue;
      const idf = Math.log(1 + (visible - documentFrequency + 0.5) / (documentFrequency + 0.5));
      const weight = (query.values[term] ?? 1) * idf;
      const end = this.tokenStarts[ordinal + 1]!;
      for (let slot = this.tokenStarts[ordinal]!; slot < end; slot++) {
        const position = this.postingPositions[slot]!;
        if (allowed[this.scopeCodes[position]!] === 0) continue;
        if (scores[position] === 0) touched[touchedCount++] = position;
        scores[position]! += weight * this.postingWeights[slot]!;
      }
    }
    const best = topK(touched, touchedCount, (position) => scores[position]!, limit);
    for (let index = 0; index < touchedCount; index++) scores[touched[index]!] = 0;
    return best;
  }

  /** How many children of each scope hold the token (computed once per token and snapshot). */
  private frequencyByScope(ordinal: number): Uint32Array {
    let counts = this.frequencies.get(ordinal);
    if (!counts) {
      counts = new Uint32Array(this.scopeNames.length);
      const end = this.tokenStarts[ordinal + 1]!;
      for (let slot = this.tokenStarts[ordinal]!; slot < end; slot++) {
        counts[this.scopeCodes[this.postingPositions[slot]!]!]!++;
      }
      this.frequencies.set(ordinal, counts);
    }
    return counts;
  }

  searchDense(query: Float32Array, allowed: Uint8Array, limit: number): Scored[] {
    if (this.dimension === null || query.length !== this.dimension) return [];
    if (this.exact) return this.searchExact(query, allowed, limit);
    if (this.signs) return this.searchBySigns(query, allowed, limit);
    return [];
  }

  /** Positions with a dense vector in the allowed scopes (cached per scope mask: snapshots never change). */
  private visiblePositions(allowed: Uint8Array): Int32Array {
    const key = allowed.join('');
    const cached = this.visibleByMask.get(key);
    if (cached) return cached;
    const positions = new Int32Array(this.size);
    let count = 0;
    for (let position = 0; position < this.size; position++) {
      if (this.hasDense[position] && allowed[this.scopeCodes[position]!]) positions[count++] = position;
    }
    const visible = positions.slice(0, count);
    if (this.visibleByMask.size >= 64) this.visibleByMask.clear();
    this.visibleByMask.set(key, visible);
    return visible;
  }

  private searchExact(query: Float32Array, allowed: Uint8Array, limit: number): Scored[] {
    const exact = this.exact!;
    const dimension = this.dimension!;
    const positions = this.visiblePositions(allowed);
    return topK(positions, positions.length, (position) => dot(query, exact, position * dimension), limit);
  }

  /**
   * Two Hamming passes over sign bits, then int8 rescoring: the first `coarseWords` words (the leading
   * dimensions, which carry the most information in Matryoshka-trained models) rank every visible
   * vector; the best few thousand are re-ranked on all bits; the best `rescoreCandidates` of those are
   * scored with their int8 vectors.
   */
  private searchBySigns(query: Float32Array, allowed: Uint8Array, limit: number): Scored[] {
    const words = this.words;
    const dimension = this.dimension!;
    const quantized = this.quantized!;
    const scales = this.quantizedScales!;
    const queryCode = new Int32Array(signCode(query).buffer);
    const positions = this.visiblePositions(allowed);
    const wanted = Math.max(limit, this.options.rescoreCandidates);
    let candidates = positions;
    if (this.coarseWords < words && positions.length > wanted * 8) {
      candidates = nearestBySigns(this.coarseSigns!, this.coarseWords, positions, queryCode, wanted * 8);
    }
    const finalists = nearestBySigns(this.signs!, words, candidates, queryCode, wanted);
    return topK(
      finalists,
      finalists.length,
      (position) => {
        const base = position * dimension;
        let sum0 = 0;
        let sum1 = 0;
        let index = 0;
        for (; index + 1 < dimension; index += 2) {
          sum0 += query[index]! * quantized[base + index]!;
          sum1 += query[index + 1]! * quantized[base + index + 1]!;
        }
        if (index < dimension) sum0 += query[index]! * quantized[base + index]!;
        return (sum0 + sum1) * scales[position]!;
      },
      limit,
    );
  }
}

function sumAllowed(countsByScope: Uint32Array, allowed: Uint8Array): number {
  let sum = 0;
  for (let code = 0; code < countsByScope.length; code++) if (allowed[code]) sum += countsByScope[code]!;
  return sum;
}

/**
 * The about-`wanted` positions whose sign words (`words` per vector in `signs`) are nearest the query's
 * in Hamming distance; a histogram of the distances gives the cut-off, so nothing is sorted.
 */
function nearestBySigns(
  signs: Int32Array,
  words: number,
  positions: Int32Array,
  queryCode: Int32Array,
  wanted: number,
): Int32Array {
  const distances = new Uint16Array(positions.length);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let index = 0; index < positions.length; index++) {
    let slot = positions[index]! * words;
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

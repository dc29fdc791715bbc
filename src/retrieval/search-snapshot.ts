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
 *
 * The parts, one file each: this file searches the segments together and merges their hits;
 * `snapshot-segment.ts` is one segment and its scans; `build-segment.ts` builds one (in slices,
 * `work-in-slices.ts`); `snapshot-tables.ts` numbers scopes and tokens; `segment-parts.ts` holds the
 * shapes they share; `snapshot-file.ts` saves and reads a snapshot.
 */
import type { SparseVector } from '../core/types.ts';
import type { Scored, SnapshotOptions } from './segment-parts.ts';
import type { DenseQuery, Scratch, SnapshotSegment } from './snapshot-segment.ts';
import type { ScopeTable } from './snapshot-tables.ts';
import { signCode } from './vector-codec.ts';

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

function denseQuery(query: Float32Array): DenseQuery {
  return { values: Float64Array.from(query), code: new Int32Array(signCode(query).buffer) };
}

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

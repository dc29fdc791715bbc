/**
 * The shapes the search snapshot's files share: a row as read from the store, the snapshot's options, a
 * scored hit, the typed arrays of one segment, and how BM25 weights are stored in them.
 */
import { bm25Parameters } from './bm25.ts';
import type { TokenTable } from './snapshot-tables.ts';

/** BM25 document weights (at most k1 + 1) are kept as 16-bit fixed point: 1/65535 of k1 + 1 per step. */
export const weightStep = (bm25Parameters.k1 + 1) / 65_535;

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

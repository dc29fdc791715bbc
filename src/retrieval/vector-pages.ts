/**
 * The compact vector table (`vector_pages`) of the embedded index: the same vectors as the `children`
 * rows, stored contiguously in pages of up to `pageSize` children of one document — their keys, BM25
 * postings (token ids, weights and each child's end), int8 vectors, scales and sign bits — so that
 * loading the search snapshot reads a few hundred large blobs instead of walking every child row (whose
 * text makes the table several times larger than its vectors). Written in the same transaction as the
 * children; `children.sparse` / `children.quantized` stay the source of truth, so a file stays readable by
 * earlier versions, and the pages can always be rebuilt from them (`rebuildVectorPages`).
 *
 * The pages are current when `meta.vector_pages_generation` equals `meta.write_generation` (every write
 * of this version sets both in its transaction); an earlier version writing the file bumps only the
 * latter, so its writes are noticed, and the pages rebuilt at the next open.
 */
import type Database from 'better-sqlite3';
import { decodeSparseBlob, quantizedDimension, signWords, writeSignWords } from './vector-codec.ts';

/** Children per page: 256 KiB of int8 vectors at 1,024 dimensions. */
export const pageSize = 256;

export const vectorPagesSchema = `
CREATE TABLE IF NOT EXISTS vector_pages (
  first_key INTEGER PRIMARY KEY, scope TEXT NOT NULL, document_id TEXT NOT NULL, count INTEGER NOT NULL,
  keys BLOB NOT NULL, sparse_ends BLOB NOT NULL, tokens BLOB NOT NULL, weights BLOB NOT NULL,
  dimension INTEGER, scales BLOB, quantized BLOB, signs BLOB
);
CREATE INDEX IF NOT EXISTS vector_pages_by_document ON vector_pages (scope, document_id);
`;

/** One child as the index writes it (the blobs of vector-codec). */
export interface PageChild {
  key: number;
  sparse: Uint8Array | null;
  quantized: Uint8Array | null;
}

/** A page read back: typed arrays over its blobs (`sparseEnds` relative to the page's tokens). */
export interface VectorPage {
  scope: string;
  count: number;
  keys: Float64Array;
  sparseEnds: Int32Array;
  tokens: Uint32Array;
  weights: Float32Array;
  dimension: number | null;
  scales: Float32Array | undefined;
  quantized: Int8Array | undefined;
  signs: Int32Array | undefined;
}

const bytesOf = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);

/** Writes the pages of one document's children (ascending keys); call inside the write transaction. */
export function insertVectorPages(
  db: Database.Database,
  scope: string,
  documentId: string,
  children: readonly PageChild[],
): void {
  const insert = db.prepare(
    `INSERT INTO vector_pages (first_key, scope, document_id, count, keys, sparse_ends, tokens, weights,
       dimension, scales, quantized, signs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let start = 0; start < children.length; start += pageSize) {
    const page = children.slice(start, start + pageSize);
    const count = page.length;
    const keys = Float64Array.from(page, (child) => child.key);
    const sparseEnds = new Int32Array(count);
    let tokenCount = 0;
    for (let at = 0; at < count; at++) {
      tokenCount += (page[at]!.sparse?.byteLength ?? 0) / 8;
      sparseEnds[at] = tokenCount;
    }
    const tokens = new Uint32Array(tokenCount);
    const weights = new Float32Array(tokenCount);
    for (let at = 0, offset = 0; at < count; at++) {
      const blob = page[at]!.sparse;
      if (!blob || blob.byteLength === 0) continue;
      const vector = decodeSparseBlob(blob);
      tokens.set(vector.indices, offset);
      weights.set(vector.values, offset);
      offset += vector.indices.length;
    }
    // A document's children all have a dense vector of one dimension, or none has one.
    const first = page[0]!.quantized;
    const dimension = first ? quantizedDimension(first) : null;
    let scales: Float32Array | undefined;
    let quantized: Int8Array | undefined;
    let signs: Int32Array | undefined;
    if (dimension !== null && page.every((child) => child.quantized?.byteLength === dimension + 4)) {
      const words = signWords(dimension);
      scales = new Float32Array(count);
      quantized = new Int8Array(count * dimension);
      signs = new Int32Array(count * words);
      for (let at = 0; at < count; at++) {
        const blob = page[at]!.quantized!;
        scales[at] = new DataView(blob.buffer, blob.byteOffset, 4).getFloat32(0, true);
        const values = new Int8Array(blob.buffer, blob.byteOffset + 4, dimension);
        quantized.set(values, at * dimension);
        writeSignWords(values, signs, at * words);
      }
    }
    insert.run(
      keys[0]!,
      scope,
      documentId,
      count,
      bytesOf(keys),
      bytesOf(sparseEnds),
      bytesOf(tokens),
      bytesOf(weights),
      quantized ? dimension : null,
      scales ? bytesOf(scales) : null,
      quantized ? bytesOf(quantized) : null,
      signs ? bytesOf(signs) : null,
    );
  }
}

export function deleteVectorPages(db: Database.Database, scope: string, documentId: string): void {
  db.prepare('DELETE FROM vector_pages WHERE scope = ? AND document_id = ?').run(scope, documentId);
}

/** Drops every page's dense part (the index became BM25-only); inside the write transaction. */
export function dropDenseFromPages(db: Database.Database): void {
  db.prepare('UPDATE vector_pages SET dimension = NULL, scales = NULL, quantized = NULL, signs = NULL').run();
}

/** Records, inside a write transaction, that the pages reflect the store's current write generation. */
export function markVectorPagesCurrent(db: Database.Database): void {
  db.prepare(
    `INSERT INTO meta (key, value)
     SELECT 'vector_pages_generation', COALESCE((SELECT value FROM meta WHERE key = 'write_generation'), '0')
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run();
}

/** Whether the pages reflect every write (read inside the caller's transaction). */
export function vectorPagesCurrent(db: Database.Database): boolean {
  const value = (key: string) =>
    db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  const pages = value('vector_pages_generation');
  return pages !== undefined && pages === (value('write_generation') ?? '0');
}

/**
 * Rebuilds every page from the children rows, in one transaction: a crash or error part way leaves the
 * file as it was (pages not current, so the next open tries again; the search loads from the rows
 * meanwhile). `afterDocument` is for tests (an error injected between documents).
 */
export function rebuildVectorPages(db: Database.Database, afterDocument?: (done: number) => void): number {
  const documents = db
    .prepare('SELECT DISTINCT scope, document_id FROM children ORDER BY scope, document_id')
    .raw()
    .all() as Array<[string, string]>;
  const readChildren = db
    .prepare('SELECT key, sparse, quantized FROM children WHERE scope = ? AND document_id = ? ORDER BY key')
    .raw();
  db.transaction(() => {
    db.prepare('DELETE FROM vector_pages').run();
    let done = 0;
    for (const [scope, documentId] of documents) {
      const rows = readChildren.all(scope, documentId) as Array<
        [number, Uint8Array | null, Uint8Array | null]
      >;
      insertVectorPages(
        db,
        scope,
        documentId,
        rows.map(([key, sparse, quantized]) => ({ key, sparse, quantized })),
      );
      afterDocument?.(++done);
    }
    markVectorPagesCurrent(db);
  })();
  return documents.length;
}

/** A typed array over a blob's bytes (copied when the blob is not aligned for the type). */
function view<T extends Float64Array | Float32Array | Int32Array | Uint32Array | Int8Array>(
  Type: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
  blob: Uint8Array,
): T {
  const bytes = blob.byteOffset % Type.BYTES_PER_ELEMENT === 0 ? blob : new Uint8Array(blob);
  return new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / Type.BYTES_PER_ELEMENT);
}

export type PageTuple = [
  string,
  number,
  Uint8Array,
  Uint8Array,
  Uint8Array,
  Uint8Array,
  number | null,
  Uint8Array | null,
  Uint8Array | null,
  Uint8Array | null,
];

export const selectPages =
  'SELECT scope, count, keys, sparse_ends, tokens, weights, dimension, scales, quantized, signs FROM vector_pages ORDER BY first_key';

export function toVectorPage(tuple: PageTuple): VectorPage {
  const [scope, count, keys, sparseEnds, tokens, weights, dimension, scales, quantized, signs] = tuple;
  const dense = dimension !== null && scales && quantized && signs;
  return {
    scope,
    count,
    keys: view(Float64Array, keys),
    sparseEnds: view(Int32Array, sparseEnds),
    tokens: view(Uint32Array, tokens),
    weights: view(Float32Array, weights),
    dimension: dense ? dimension : null,
    scales: dense ? view(Float32Array, scales) : undefined,
    quantized: dense ? view(Int8Array, quantized) : undefined,
    signs: dense ? view(Int32Array, signs) : undefined,
  };
}

/** Children `from` to `to` (exclusive) of a page, as a page of their own. */
export function slicePage(page: VectorPage, from: number, to: number): VectorPage {
  if (from === 0 && to === page.count) return page;
  const tokenStart = from === 0 ? 0 : page.sparseEnds[from - 1]!;
  const tokenEnd = to === 0 ? 0 : page.sparseEnds[to - 1]!;
  const sparseEnds = page.sparseEnds.slice(from, to);
  for (let at = 0; at < sparseEnds.length; at++) sparseEnds[at]! -= tokenStart;
  const dimension = page.dimension ?? 0;
  const words = page.dimension === null ? 0 : signWords(dimension);
  return {
    scope: page.scope,
    count: to - from,
    keys: page.keys.subarray(from, to),
    sparseEnds,
    tokens: page.tokens.subarray(tokenStart, tokenEnd),
    weights: page.weights.subarray(tokenStart, tokenEnd),
    dimension: page.dimension,
    scales: page.scales?.subarray(from, to),
    quantized: page.quantized?.subarray(from * dimension, to * dimension),
    signs: page.signs?.subarray(from * words, to * words),
  };
}

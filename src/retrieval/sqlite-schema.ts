/**
 * The embedded store's tables. Blobs go last in `children` so reading the other columns never walks them.
 * `children.dense` (float32) is no longer written (the search reads only `quantized`); it stays in the
 * table so that files written before keep opening. `documents.link` (and `documents.kind`) came later: `addedColumns` adds it to
 * older files (an added nullable column needs no new schema version; older code ignores it), and so does
 * `documents.sparse_weights_version` (bm25.ts `sparseWeightsVersion`): NULL in the rows of an older file
 * means weights from before versioning, flagged until `ragent reindex`. The table
 * `vector_pages` (vector-pages.ts) is derived from `children`; it needs no new schema version either.
 */
export const schemaVersion = '1';

export const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  scope TEXT NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, pages INTEGER NOT NULL, bytes INTEGER NOT NULL,
  parents INTEGER NOT NULL, children INTEGER NOT NULL, uploader TEXT NOT NULL, ingested_at TEXT NOT NULL,
  embedding_model TEXT, link TEXT, sparse_weights_version INTEGER, PRIMARY KEY (scope, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parents (
  scope TEXT NOT NULL, id TEXT NOT NULL, document_id TEXT NOT NULL, document_name TEXT NOT NULL,
  page_start INTEGER NOT NULL, page_end INTEGER NOT NULL, section_path TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY (scope, id)
);
CREATE INDEX IF NOT EXISTS parents_by_document ON parents (scope, document_id);
CREATE TABLE IF NOT EXISTS children (
  key INTEGER PRIMARY KEY, scope TEXT NOT NULL, id TEXT NOT NULL, document_id TEXT NOT NULL,
  document_name TEXT NOT NULL, parent_id TEXT NOT NULL, page_start INTEGER NOT NULL, page_end INTEGER NOT NULL,
  section_path TEXT NOT NULL, sparse BLOB, quantized BLOB, text TEXT NOT NULL, dense BLOB,
  UNIQUE (scope, id)
);
CREATE INDEX IF NOT EXISTS children_by_document ON children (scope, document_id);
DROP INDEX IF EXISTS children_with_dense;
CREATE INDEX IF NOT EXISTS children_with_vectors ON children (key) WHERE quantized IS NOT NULL;
`;

/** Columns added after a table was first created: added on open when missing. */
export const addedColumns: ReadonlyArray<{ table: string; column: string; definition: string }> = [
  { table: 'documents', column: 'link', definition: 'TEXT' },
  { table: 'documents', column: 'sparse_weights_version', definition: 'INTEGER' },
  // NULL in rows written before kinds: read as pdf, markdown or text by the name (kindOfOldDocument).
  { table: 'documents', column: 'kind', definition: 'TEXT' },
];

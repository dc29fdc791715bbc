/**
 * Writing and removing a document in the embedded store. Each write is one transaction (a document is
 * visible whole or not at all; a killed process leaves the previous state) that also bumps the write
 * generation and keeps the compact vector table in step; once committed, it is applied to the live
 * search snapshot. Documents are keyed by (scope, id): the same bytes may live in two workspaces, never
 * shared.
 */
import type Database from 'better-sqlite3';
import type { DocumentRecord, Scope } from '../core/types.ts';
import type { ReplaceDocumentInput } from './chunk-index.ts';
import { documentChanged } from './document-changed.ts';
import type { SnapshotRow } from './segment-parts.ts';
import { checkEmbedding, denseDimensionOf, hasDenseVectors } from './sqlite-embedding.ts';
import type { LiveSnapshot } from './sqlite-live-snapshot.ts';
import { bumpWriteGeneration } from './sqlite-meta.ts';
import { guardWrite, type SqliteStore } from './sqlite-open.ts';
import { applyWrite } from './sqlite-snapshot-refresh.ts';
import { encodeQuantizedBlob, encodeSparseBlob, normalized } from './vector-codec.ts';
import { deleteVectorPages, insertVectorPages } from './vector-pages.ts';

export async function replaceDocument(
  store: SqliteStore,
  live: LiveSnapshot,
  input: ReplaceDocumentInput,
): Promise<void> {
  const { db } = store;
  const { document, parents, children } = input;
  const dimension = denseDimensionOf(input);
  const insertParent = db.prepare(
    `INSERT INTO parents (scope, id, document_id, document_name, page_start, page_end, section_path, text)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertChild = db.prepare(
    `INSERT INTO children (scope, id, document_id, document_name, parent_id, page_start, page_end,
         section_path, sparse, quantized, text, dense)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deleted: number[] = [];
  const rows: SnapshotRow[] = [];
  const write = db.transaction(() => {
    if (input.onlyIfCurrent) checkCurrent(db, document);
    bumpWriteGeneration(db);
    deleted.length = 0;
    rows.length = 0;
    for (const id of new Set([document.id, ...(input.replaces ?? [])]))
      deleted.push(...deleteDocument(db, id, document.scope).keys);
    if (dimension !== null) {
      checkEmbedding(store, { model: document.embeddingModel ?? 'unknown', dimension }, true);
    }
    db.prepare(
      `INSERT INTO documents (scope, id, name, pages, bytes, parents, children, uploader, ingested_at,
             embedding_model, link, sparse_weights_version, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      document.scope,
      document.id,
      document.name,
      document.pages,
      document.bytes,
      document.parents,
      document.children,
      document.uploader,
      document.ingestedAt,
      dimension === null ? null : document.embeddingModel,
      document.link ?? null,
      document.sparseWeightsVersion ?? null,
      document.kind ?? null,
    );
    for (const parent of parents) {
      insertParent.run(
        document.scope,
        parent.id,
        document.id,
        document.name,
        parent.pageStart,
        parent.pageEnd,
        JSON.stringify(parent.sectionPath),
        parent.text,
      );
    }
    for (const child of children) {
      const quantized = child.dense ? encodeQuantizedBlob(normalized(child.dense)) : null;
      const sparse = encodeSparseBlob(child.sparse);
      const { lastInsertRowid } = insertChild.run(
        document.scope,
        child.id,
        document.id,
        document.name,
        child.parentId,
        child.pageStart,
        child.pageEnd,
        JSON.stringify(child.sectionPath),
        sparse,
        quantized,
        child.text,
        null,
      );
      rows.push({ rowid: Number(lastInsertRowid), scope: document.scope, sparse, quantized });
    }
    insertVectorPages(
      db,
      document.scope,
      document.id,
      rows.map((row) => ({ key: row.rowid, sparse: row.sparse, quantized: row.quantized })),
    );
  });
  guardWrite(store.file, write);
  applyWrite(live, { deleted, rows });
  store.logger?.debug(
    { documentId: document.id, scope: document.scope, children: children.length },
    'indexed',
  );
}

/** Removes a document in one transaction; false when it was not stored. */
export async function removeDocument(
  store: SqliteStore,
  live: LiveSnapshot,
  documentId: string,
  scope: Scope,
): Promise<boolean> {
  const { keys, found } = guardWrite(
    store.file,
    store.db.transaction(() => {
      bumpWriteGeneration(store.db);
      return deleteDocument(store.db, documentId, scope);
    }),
  );
  applyWrite(live, { deleted: keys, rows: [] });
  return found;
}

/** Throws DOCUMENT_CHANGED unless `document` (same id and ingest time) is still stored in its scope. */
function checkCurrent(db: Database.Database, document: DocumentRecord): void {
  const ingestedAt = db
    .prepare('SELECT ingested_at FROM documents WHERE scope = ? AND id = ?')
    .pluck()
    .get(document.scope, document.id);
  if (ingestedAt !== document.ingestedAt) throw documentChanged(document);
}

/**
 * Deletes a document's rows (inside the caller's transaction); returns the keys of its children (for
 * the snapshot) and whether the document was stored.
 */
function deleteDocument(
  db: Database.Database,
  documentId: string,
  scope: Scope,
): { keys: number[]; found: boolean } {
  const keys = db
    .prepare('SELECT key FROM children WHERE scope = ? AND document_id = ?')
    .pluck()
    .all(scope, documentId) as number[];
  db.prepare('DELETE FROM children WHERE scope = ? AND document_id = ?').run(scope, documentId);
  deleteVectorPages(db, scope, documentId);
  db.prepare('DELETE FROM parents WHERE scope = ? AND document_id = ?').run(scope, documentId);
  const { changes } = db.prepare('DELETE FROM documents WHERE scope = ? AND id = ?').run(scope, documentId);
  if (!hasDenseVectors(db)) {
    db.prepare("DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimension')").run();
  }
  return { keys, found: changes > 0 };
}

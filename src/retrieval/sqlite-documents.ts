/**
 * Reading the embedded store's records: document records (one scope's, every scope's), a parent, a
 * document read back whole with its parents and children (for `ragent reindex`), and the child count.
 */
import type Database from 'better-sqlite3';
import type { DocumentRecord, ParentChunk, Scope } from '../core/types.ts';
import type { StoredDocument } from './chunk-index.ts';
import {
  type ChildRow,
  type DocumentRow,
  type ParentRow,
  toChild,
  toDocument,
  toParent,
} from './sqlite-rows.ts';

export async function getDocument(
  db: Database.Database,
  documentId: string,
  scope: Scope,
): Promise<DocumentRecord | undefined> {
  const row = db.prepare('SELECT * FROM documents WHERE scope = ? AND id = ?').get(scope, documentId) as
    | DocumentRow
    | undefined;
  return row ? toDocument(row) : undefined;
}

export async function listDocuments(
  db: Database.Database,
  scopes: readonly Scope[],
): Promise<DocumentRecord[]> {
  if (scopes.length === 0) return [];
  const rows = db
    .prepare(
      'SELECT * FROM documents WHERE scope IN (SELECT value FROM json_each(?)) ORDER BY name, ingested_at',
    )
    .all(JSON.stringify(scopes)) as DocumentRow[];
  return rows.map(toDocument);
}

/** Every document of every scope (for `ragent reindex` and diagnostics). */
export async function listAllDocuments(db: Database.Database): Promise<DocumentRecord[]> {
  const rows = db.prepare('SELECT * FROM documents ORDER BY scope, name').all() as DocumentRow[];
  return rows.map(toDocument);
}

export async function getParent(
  db: Database.Database,
  parentId: string,
  scopes: readonly Scope[],
): Promise<ParentChunk | undefined> {
  if (scopes.length === 0) return undefined;
  const row = db
    .prepare(
      'SELECT * FROM parents WHERE id = ? AND scope IN (SELECT value FROM json_each(?)) ORDER BY scope LIMIT 1',
    )
    .get(parentId, JSON.stringify(scopes)) as ParentRow | undefined;
  return row ? toParent(row) : undefined;
}

/** A document with its stored parents and children (their text), or undefined. */
export async function readDocument(
  db: Database.Database,
  documentId: string,
  scope: Scope,
): Promise<StoredDocument | undefined> {
  const document = await getDocument(db, documentId, scope);
  if (!document) return undefined;
  const parents = db
    .prepare('SELECT * FROM parents WHERE scope = ? AND document_id = ? ORDER BY rowid')
    .all(scope, documentId) as ParentRow[];
  const children = db
    .prepare(
      `SELECT key, scope, id, document_id, document_name, parent_id, page_start, page_end, section_path, text
         FROM children WHERE scope = ? AND document_id = ? ORDER BY key`,
    )
    .all(scope, documentId) as ChildRow[];
  return { document, parents: parents.map(toParent), children: children.map(toChild) };
}

/** Children in the index (all scopes) — for benchmarks and diagnostics. */
export function childCount(db: Database.Database): number {
  return (db.prepare('SELECT COUNT(*) AS count FROM children').get() as { count: number }).count;
}

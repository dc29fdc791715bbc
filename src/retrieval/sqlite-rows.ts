/**
 * The embedded store's rows as SQLite returns them, and how they become the port's records.
 */
import { type FileKind, kindOfOldDocument } from '../core/file-kind.ts';
import type { ChildChunk, DocumentRecord, ParentChunk } from '../core/types.ts';

export interface ChildRow {
  key: number;
  scope: string;
  id: string;
  document_id: string;
  document_name: string;
  parent_id: string;
  page_start: number;
  page_end: number;
  section_path: string;
  text: string;
}

export interface ParentRow {
  scope: string;
  id: string;
  document_id: string;
  document_name: string;
  page_start: number;
  page_end: number;
  section_path: string;
  text: string;
}

export interface DocumentRow {
  scope: string;
  id: string;
  name: string;
  pages: number;
  bytes: number;
  parents: number;
  children: number;
  uploader: string;
  ingested_at: string;
  embedding_model: string | null;
  /** Null for documents ingested without a link, and in files written before the column. */
  link: string | null;
  /** Null for documents written before sparse weights were versioned (version 1). */
  sparse_weights_version: number | null;
  /** Null (or absent, in a file not yet opened by this version) for documents written before kinds. */
  kind?: string | null;
}

export function toParent(row: ParentRow): ParentChunk {
  return {
    id: row.id,
    text: row.text,
    documentId: row.document_id,
    documentName: row.document_name,
    scope: row.scope,
    pageStart: row.page_start,
    pageEnd: row.page_end,
    sectionPath: JSON.parse(row.section_path) as string[],
  };
}

export function toChild(row: ChildRow): ChildChunk {
  return { ...toParent(row), parentId: row.parent_id };
}

export function toDocument(row: DocumentRow): DocumentRecord {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    pages: row.pages,
    bytes: row.bytes,
    parents: row.parents,
    children: row.children,
    uploader: row.uploader,
    ingestedAt: row.ingested_at,
    embeddingModel: row.embedding_model,
    ...(row.link ? { link: row.link } : {}),
    ...(row.sparse_weights_version === null ? {} : { sparseWeightsVersion: row.sparse_weights_version }),
    kind: row.kind ? (row.kind as FileKind) : kindOfOldDocument(row.name),
  };
}

/**
 * The ports of the index. Retrieval is the one place that reads the index; ingest the one that writes it.
 * Two backends implement `ChunkIndex`: the embedded SQLite store (default) and Qdrant (QDRANT_URL).
 */
import type {
  ChildChunk,
  DocumentRecord,
  ParentChunk,
  Scope,
  SearchHit,
  SparseVector,
} from '../core/types.ts';

/** A child ready for the index: its text plus the vectors computed from it. */
export interface IndexedChild extends ChildChunk {
  sparse: SparseVector;
  /** Absent when the index is BM25-only (RAGENT_EMBEDDINGS=none). */
  dense?: Float32Array;
}

export interface ReplaceDocumentInput {
  document: DocumentRecord;
  parents: ParentChunk[];
  children: IndexedChild[];
  /** Ids of older documents of the same scope (same name) that this one replaces, in the same transaction. */
  replaces?: string[];
  /**
   * Re-indexing: written only while `document` (the same id, ingested at the same time) is still the live
   * document of its scope and name; otherwise DOCUMENT_CHANGED and nothing changes — a newer file, or a
   * removal, that happened meanwhile is never undone.
   */
  onlyIfCurrent?: boolean;
}

export interface SearchQuery {
  text: string;
  sparse: SparseVector;
  dense?: Float32Array;
}

export interface SearchOptions {
  /** Fixed by the caller (an adapter); never chosen by the model. Empty scopes find nothing. */
  scopes: readonly Scope[];
  k: number;
}

export interface IndexEmbeddingInfo {
  /** Null for a BM25-only index. */
  model: string | null;
  dimension: number | null;
}

export interface ChunkIndex {
  /** Atomic: after it resolves all of the document is searchable; if it fails, none of it is. */
  replaceDocument(input: ReplaceDocumentInput): Promise<void>;
  removeDocument(documentId: string, scope: Scope): Promise<boolean>;
  /**
   * Moves a document to another scope with the same chunks and vectors (its uploader and upload link
   * kept), atomically: at every moment — whatever step fails, whichever process dies — a search sees it
   * in exactly one of the two scopes. Throws DOCUMENT_NOT_FOUND when `from` has no such document, and
   * DOCUMENT_NAME_TAKEN when `to` already has one of that name (or those bytes): nothing is replaced.
   */
  moveDocument(documentId: string, from: Scope, to: Scope): Promise<MoveOutcome>;
  getDocument(documentId: string, scope: Scope): Promise<DocumentRecord | undefined>;
  listDocuments(scopes: readonly Scope[]): Promise<DocumentRecord[]>;
  /** Best first; at most `childrenPerParent` (2) children of one parent while others rank (diversify.ts). */
  search(query: SearchQuery, options: SearchOptions): Promise<SearchHit[]>;
  getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined>;
  /**
   * Throws RagentError INDEX_MODEL_MISMATCH when the index holds vectors of another model or
   * dimension (with how to reindex); records the model on first use.
   */
  ensureEmbedding(info: IndexEmbeddingInfo): Promise<void>;
  close(): Promise<void>;
  /** Starts loading what searches need in the background (the embedded store's snapshot), at start. */
  warmUp?(): void;
  /** Every document of every scope (`ragent reindex`, diagnostics). */
  listAllDocuments?(): Promise<DocumentRecord[]>;
  /** A document with its stored parents and children, so it can be re-indexed without the file. */
  readDocument?(documentId: string, scope: Scope): Promise<StoredDocument | undefined>;
  /**
   * Drops every dense vector (the index becomes BM25-only, searchable all along), before every document
   * is embedded again with `next`. Throws INDEX_MODEL_MISMATCH, dropping nothing, when the index cannot
   * hold `next`'s vectors (a Qdrant collection keeps the dense size it was created with).
   */
  dropDenseVectors?(next: IndexEmbeddingInfo): Promise<number>;
}

export interface MoveOutcome {
  /** The document as it now is, in its new scope. */
  document: DocumentRecord;
  /**
   * The move is done, but removing what is left of the old copy failed (it is no longer searched; it is
   * swept before the next write of that file there and when the index is opened).
   */
  cleanUpPending: boolean;
}

/** A document's stored chunks (their text included). */
export interface StoredDocument {
  document: DocumentRecord;
  parents: ParentChunk[];
  children: ChildChunk[];
}

export type { Embedder } from '../core/model-provider.ts';

/** What the graph's tools call: text in, hits out; scopes always from the caller. */
export interface Retriever {
  search(text: string, options: SearchOptions): Promise<SearchHit[]>;
  getParent(parentId: string, scopes: readonly Scope[]): Promise<ParentChunk | undefined>;
  /** The records of these documents found in the caller's scopes (for the sources' upload links). */
  getDocuments(documentIds: readonly string[], scopes: readonly Scope[]): Promise<DocumentRecord[]>;
}

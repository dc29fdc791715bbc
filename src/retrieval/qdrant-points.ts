/**
 * How ragent's documents, parents and children map to Qdrant points and payloads. One collection holds
 * everything, told apart by `payload.kind`:
 * - `child` points carry the named dense vector `dense` (cosine) and the named sparse vector `bm25`
 *   (`modifier: idf`, so Qdrant applies IDF to our BM25 document weights (bm25.ts));
 * - `parent`, `document` and one `meta` point (embedding model + dimension) carry payload only; the
 *   `document` point records the BM25 weights' `sparse_weights_version` (absent: written before it)
 *   and the file's `file_kind` (core/file-kind.ts; absent: written before it, then told by the name).
 * Parents and children carry everything they were ingested with (text, section path, pages, ids) and
 * their `position` in the document (absent: written before it; then their ids give the order), so a
 * document can be read back whole, without its file (`ragent reindex`).
 */
import { createHash } from 'node:crypto';
import { type FileKind, kindOfOldDocument } from '../core/file-kind.ts';
import type { ChildChunk, DocumentRecord, ParentChunk } from '../core/types.ts';
import type { ReplaceDocumentInput } from './chunk-index.ts';

export type Payload = Record<string, unknown>;

export const denseName = 'dense';
export const sparseName = 'bm25';
/** The filter condition that picks parents and children (not document or meta points). */
export const chunkKinds = { key: 'kind', match: { any: ['child', 'parent'] } };

/** A stable UUID for a point (Qdrant ids are UUIDs or unsigned integers). */
export function pointId(scope: string, kind: string, id: string, version = ''): string {
  const hex = createHash('sha256').update(`${scope}\u0000${kind}\u0000${id}\u0000${version}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The parent and child points of one version of a document. */
export function chunkPoints(input: ReplaceDocumentInput, version: string, writtenAt: number) {
  const { document, parents, children } = input;
  const scope = document.scope;
  return [
    ...parents.map((parent, position) => ({
      id: pointId(scope, 'parent', parent.id, version),
      vector: {},
      payload: {
        kind: 'parent',
        scope,
        version,
        written_at: writtenAt,
        document_id: document.id,
        document_name: document.name,
        parent_id: parent.id,
        position,
        page_start: parent.pageStart,
        page_end: parent.pageEnd,
        section_path: parent.sectionPath,
        text: parent.text,
      },
    })),
    ...children.map((child, position) => ({
      id: pointId(scope, 'child', child.id, version),
      vector: {
        [sparseName]: { indices: child.sparse.indices, values: child.sparse.values },
        ...(child.dense ? { [denseName]: Array.from(child.dense) } : {}),
      },
      payload: {
        kind: 'child',
        scope,
        version,
        written_at: writtenAt,
        document_id: document.id,
        document_name: document.name,
        child_id: child.id,
        parent_id: child.parentId,
        position,
        page_start: child.pageStart,
        page_end: child.pageEnd,
        section_path: child.sectionPath,
        text: child.text,
      },
    })),
  ];
}

export function documentPayload(document: DocumentRecord, version: string, generation: number): Payload {
  return {
    kind: 'document',
    scope: document.scope,
    version,
    generation,
    document_id: document.id,
    name: document.name,
    pages: document.pages,
    bytes: document.bytes,
    parents: document.parents,
    children: document.children,
    uploader: document.uploader,
    ingested_at: document.ingestedAt,
    embedding_model: document.embeddingModel,
    ...(document.link ? { link: document.link } : {}),
    ...(document.kind ? { file_kind: document.kind } : {}),
    ...(document.sparseWeightsVersion === undefined
      ? {}
      : { sparse_weights_version: document.sparseWeightsVersion }),
  };
}

export function toDocument(payload: Payload): DocumentRecord {
  return {
    id: String(payload.document_id),
    name: String(payload.name),
    scope: String(payload.scope),
    pages: Number(payload.pages),
    bytes: Number(payload.bytes),
    parents: Number(payload.parents),
    children: Number(payload.children),
    uploader: String(payload.uploader),
    ingestedAt: String(payload.ingested_at),
    embeddingModel: typeof payload.embedding_model === 'string' ? payload.embedding_model : null,
    ...(typeof payload.link === 'string' && payload.link ? { link: payload.link } : {}),
    // Absent in documents written before kinds: pdf, markdown or text by the name.
    kind:
      typeof payload.file_kind === 'string' && payload.file_kind
        ? (payload.file_kind as FileKind)
        : kindOfOldDocument(String(payload.name)),
    // Absent in documents written before sparse weights were versioned (version 1).
    ...(typeof payload.sparse_weights_version === 'number'
      ? { sparseWeightsVersion: payload.sparse_weights_version }
      : {}),
  };
}

export function location(payload: Payload) {
  return {
    documentId: String(payload.document_id),
    documentName: String(payload.document_name),
    scope: String(payload.scope),
    pageStart: Number(payload.page_start),
    pageEnd: Number(payload.page_end),
    sectionPath: Array.isArray(payload.section_path) ? payload.section_path.map(String) : [],
  };
}

export function toChild(payload: Payload): ChildChunk {
  return {
    id: String(payload.child_id),
    parentId: String(payload.parent_id),
    text: String(payload.text),
    ...location(payload),
  };
}

export function toParent(payload: Payload): ParentChunk {
  return { id: String(payload.parent_id), text: String(payload.text), ...location(payload) };
}

const idOrder = new Intl.Collator('en', { numeric: true });

/**
 * The order chunks were ingested in: by `position`, or (points written before it) by id, numbers
 * compared as numbers (`…-p2` before `…-p10`, `…-p2-c3` before `…-p2-c12`).
 */
export function inIngestOrder(payloads: Payload[], idKey: 'parent_id' | 'child_id'): Payload[] {
  return payloads.sort((left, right) =>
    typeof left.position === 'number' && typeof right.position === 'number'
      ? left.position - right.position
      : idOrder.compare(String(left[idKey]), String(right[idKey])),
  );
}

/**
 * Where a moved document came from: a document point written by a move carries the scope and version
 * of the copy it replaces (`moved_from_scope`, `moved_from_version`). That copy is no longer live from
 * the moment this point exists, whatever else is left of it (see qdrant-move.ts).
 */
export interface MovedFrom {
  scope: string;
  name: string;
  version: string;
}

export function movedFrom(payload: Payload): MovedFrom | undefined {
  if (typeof payload.moved_from_scope !== 'string' || typeof payload.moved_from_version !== 'string') {
    return undefined;
  }
  return { scope: payload.moved_from_scope, name: String(payload.name), version: payload.moved_from_version };
}

const sourceKey = (source: MovedFrom) => `${source.scope}\u0000${source.name}\u0000${source.version}`;

/**
 * The live document of each (scope, file name): the highest generation (then the latest ingest, then the
 * version, so every reader picks the same one) — unless a move's document point names it as its source
 * (`movedAway`: the document now lives in the other set). A document point it outranks is a leftover of
 * a commit whose clean-up did not finish: invisible, and swept later. Only the groups of `scopes` (all
 * when omitted) are returned; every given point counts as a move marker.
 */
export function splitLive(
  documents: readonly Payload[],
  scopes?: ReadonlySet<string>,
): { live: Payload[]; shadowed: Payload[]; movedAway: Payload[] } {
  const sources = new Set<string>();
  for (const payload of documents) {
    const source = movedFrom(payload);
    if (source) sources.add(sourceKey(source));
  }
  const own = scopes ? documents.filter((payload) => scopes.has(String(payload.scope))) : documents;
  const best = new Map<string, Payload>();
  for (const payload of own) {
    const name = `${String(payload.scope)}\u0000${String(payload.name)}`;
    const current = best.get(name);
    if (!current || outranks(payload, current)) best.set(name, payload);
  }
  const tops = [...best.values()];
  const isMovedAway = (payload: Payload) =>
    sources.has(
      sourceKey({
        scope: String(payload.scope),
        name: String(payload.name),
        version: String(payload.version),
      }),
    );
  const kept = new Set(tops);
  return {
    live: tops.filter((payload) => !isMovedAway(payload)),
    shadowed: own.filter((payload) => !kept.has(payload)),
    movedAway: tops.filter(isMovedAway),
  };
}

function outranks(left: Payload, right: Payload): boolean {
  const generation = Number(left.generation ?? 0) - Number(right.generation ?? 0);
  if (generation !== 0) return generation > 0;
  const ingested = String(left.ingested_at).localeCompare(String(right.ingested_at));
  if (ingested !== 0) return ingested > 0;
  return String(left.version).localeCompare(String(right.version)) > 0;
}

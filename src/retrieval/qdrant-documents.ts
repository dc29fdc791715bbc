/**
 * The live documents of Qdrant: a record by id, the records of some or every scope, and a document
 * read back whole (its live version's parents and children, in ingest order) for `ragent reindex`.
 */
import type { DocumentRecord, Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { StoredDocument } from './chunk-index.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveDocuments, liveRead, scrollAll } from './qdrant-live-reads.ts';
import {
  chunkKinds,
  inIngestOrder,
  type Payload,
  pointId,
  splitLive,
  toChild,
  toDocument,
  toParent,
} from './qdrant-points.ts';

/** The document point of `documentId` in `scope`, unless a newer version of the same file outranks it. */
async function liveDocumentPoint(
  connection: QdrantConnection,
  documentId: string,
  scope: Scope,
): Promise<Payload | undefined> {
  const [point] = await callQdrant(connection, 'read', () =>
    connection.client.retrieve(connection.collection, {
      ids: [pointId(scope, 'document', documentId)],
      with_payload: true,
      ...liveRead,
    }),
  );
  const payload = point?.payload as Payload | undefined;
  if (payload?.kind !== 'document' || payload.scope !== scope) return undefined;
  // Outranked by a newer version of the same file (a clean-up still pending): not live.
  const named = await callQdrant(connection, 'read', () =>
    documentsNamed(connection, scope, String(payload.name)),
  );
  const live = splitLive(named, new Set([scope])).live[0];
  return live && live.document_id === documentId ? live : undefined;
}

/** The record of the live document `documentId` of `scope`. */
export async function readDocumentRecord(
  connection: QdrantConnection,
  documentId: string,
  scope: Scope,
): Promise<DocumentRecord | undefined> {
  const live = await liveDocumentPoint(connection, documentId, scope);
  return live ? toDocument(live) : undefined;
}

/**
 * The live version of `documentId` with its parents and children as ingested (text, section paths,
 * pages, ids), in ingest order, scrolled `batchSize` points a request (a large manual has tens of
 * thousands of children). Undefined when it is not live, or stopped being live during the read (replaced
 * or removed meanwhile: what was read may be partly swept). A live version whose chunks do not add up to
 * its record is refused: re-indexing it would store an incomplete document.
 */
export async function readStoredDocument(
  connection: QdrantConnection,
  documentId: string,
  scope: Scope,
): Promise<StoredDocument | undefined> {
  const live = await liveDocumentPoint(connection, documentId, scope);
  if (!live) return undefined;
  const document = toDocument(live);
  const payloads = await scrollAll(
    connection,
    {
      must: [
        chunkKinds,
        { key: 'scope', match: { value: scope } },
        { key: 'document_name', match: { value: document.name } },
        { key: 'version', match: { value: String(live.version) } },
      ],
    },
    liveRead,
    connection.batchSize,
  );
  const parents = inIngestOrder(
    payloads.filter((payload) => payload.kind === 'parent'),
    'parent_id',
  ).map(toParent);
  const children = inIngestOrder(
    payloads.filter((payload) => payload.kind === 'child'),
    'child_id',
  ).map(toChild);
  if (parents.length === document.parents && children.length === document.children) {
    return { document, parents, children };
  }
  const still = await liveDocumentPoint(connection, documentId, scope);
  if (!still || still.version !== live.version) return undefined;
  throw new RagentError(
    'QDRANT_FAILED',
    errorMessages.QDRANT_FAILED.partsMissing({
      parentsFound: parents.length,
      parents: document.parents,
      childrenFound: children.length,
      children: document.children,
      name: document.name,
    }),
    { details: { documentId, scope, version: live.version } },
  );
}

/** The live documents of these scopes (of every scope when undefined), by scope, name and ingest time. */
export async function listLiveDocuments(
  connection: QdrantConnection,
  scopes: readonly Scope[] | undefined,
): Promise<DocumentRecord[]> {
  const payloads = await liveDocuments(connection, scopes);
  const documents = payloads.map(toDocument);
  return scopes
    ? documents.sort(
        (left, right) =>
          left.name.localeCompare(right.name) || left.ingestedAt.localeCompare(right.ingestedAt),
      )
    : documents.sort(
        (left, right) =>
          left.scope.localeCompare(right.scope) ||
          left.name.localeCompare(right.name) ||
          left.ingestedAt.localeCompare(right.ingestedAt),
      );
}

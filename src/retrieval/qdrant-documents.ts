/** The live document records of Qdrant: one by id, or listed by scope. */
import type { DocumentRecord, Scope } from '../core/types.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveDocuments, liveRead } from './qdrant-live-reads.ts';
import { type Payload, pointId, splitLive, toDocument } from './qdrant-points.ts';

/** The document `documentId` of `scope`, unless a newer version of the same file outranks it. */
export async function readDocument(
  connection: QdrantConnection,
  documentId: string,
  scope: Scope,
): Promise<DocumentRecord | undefined> {
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
  return live && live.document_id === documentId ? toDocument(live) : undefined;
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

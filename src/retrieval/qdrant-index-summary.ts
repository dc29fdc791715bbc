/**
 * A read-only look at a Qdrant collection for `ragent doctor`: the live document records of every
 * scope (the same liveness rules as every read), without creating the collection or sweeping anything.
 */
import type { DocumentRecord } from '../core/types.ts';
import { readDenseSize } from './qdrant-collection.ts';
import { connectQdrant } from './qdrant-connection.ts';
import { listLiveDocuments } from './qdrant-documents.ts';

/** Undefined when the collection does not exist yet. Throws QDRANT_* errors. */
export async function readQdrantDocuments(options: {
  url: string;
  apiKey: string | undefined;
  collection: string;
  timeoutMs: number;
}): Promise<DocumentRecord[] | undefined> {
  const connection = connectQdrant(options);
  if ((await readDenseSize(connection)) === undefined) return undefined;
  return listLiveDocuments(connection, undefined);
}

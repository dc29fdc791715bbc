/**
 * The reads that decide which version of each file is live. They fetch document points (with the move
 * markers of the scopes read) from a majority of the replicas of a shard, and `splitLive` (qdrant-points.ts)
 * takes, per (scope, name), only the highest generation not moved away as live.
 */
import type { Scope } from '../core/types.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { type Payload, splitLive } from './qdrant-points.ts';

export type Filter = { must?: unknown[]; must_not?: unknown[]; should?: unknown[] };

/** Reads that decide which versions are live ask a majority of the replicas of a shard. */
export const liveRead = { consistency: 'majority' as const };

/** The live version of each file in these scopes (read from a majority of the replicas). */
export async function liveVersions(
  connection: QdrantConnection,
  scopes: readonly Scope[],
): Promise<string[]> {
  return (await liveDocuments(connection, scopes)).map((payload) => String(payload.version));
}

/** The live documents of these scopes, or of every scope when `scopes` is undefined. */
export async function liveDocuments(
  connection: QdrantConnection,
  scopes: readonly Scope[] | undefined,
): Promise<Payload[]> {
  const documents = await scrollAll(
    connection,
    {
      must: [{ key: 'kind', match: { value: 'document' } }],
      // With the documents of these scopes, the moves out of them: their markers say which copy left.
      ...(scopes
        ? {
            should: [
              { key: 'scope', match: { any: [...scopes] } },
              { key: 'moved_from_scope', match: { any: [...scopes] } },
            ],
          }
        : {}),
    },
    liveRead,
  );
  return splitLive(documents, scopes ? new Set(scopes) : undefined).live;
}

/** The document points of (scope, name), and those of moves out of (scope, name) (their markers). */
export async function documentsNamed(
  connection: QdrantConnection,
  scope: Scope,
  name: string,
): Promise<Payload[]> {
  return scrollAll(
    connection,
    {
      must: [
        { key: 'kind', match: { value: 'document' } },
        { key: 'name', match: { value: name } },
      ],
      should: [
        { key: 'scope', match: { value: scope } },
        { key: 'moved_from_scope', match: { value: scope } },
      ],
    },
    liveRead,
  );
}

/** The payloads of every point `filter` picks, page after page (`pageSize` points a request). */
export async function scrollAll(
  connection: QdrantConnection,
  filter: Filter,
  read: { consistency?: 'majority' } = {},
  pageSize = 256,
): Promise<Payload[]> {
  const payloads: Payload[] = [];
  let offset: string | number | undefined;
  for (;;) {
    const page = await callQdrant(connection, 'read', () =>
      connection.client.scroll(connection.collection, {
        filter: filter as never,
        ...read,
        limit: pageSize,
        with_payload: true,
        ...(offset === undefined ? {} : { offset }),
      }),
    );
    for (const point of page.points) payloads.push(point.payload as Payload);
    const next = page.next_page_offset;
    if (next === null || next === undefined || typeof next === 'object') break;
    offset = next;
  }
  return payloads;
}

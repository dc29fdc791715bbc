/**
 * The sweep of leftovers: what a failed clean-up, or a process that died at any step of a write, left
 * behind (uncommitted versions, outranked document points, copies that were moved away). It runs before
 * every write of a (scope, name) and when the index is opened (there, chunks only once older than a grace
 * period, so a write in progress elsewhere is never swept away).
 */
import type { Scope } from '../core/types.ts';
import type { QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, type Filter, liveRead, scrollAll } from './qdrant-live-reads.ts';
import { chunkKinds, type MovedFrom, movedFrom, pointId, splitLive } from './qdrant-points.ts';

/**
 * Deletes leftovers, in an order where no step makes an old copy live again: the copies named by
 * move markers about to go, then document points outranked by another of the same (scope, name) or
 * named in `extra.ids`, then copies that were moved away (the top of their name, after what they
 * outrank), then parents and children of no live version (of `target` only, when given; at open,
 * only those written more than `graceMs` ago).
 */
export async function sweep(
  connection: QdrantConnection,
  target: { scope: Scope; name: string } | undefined,
  graceMs: number,
  extra: { ids?: readonly string[] } = {},
): Promise<void> {
  const { client, collection } = connection;
  const documents = target
    ? await documentsNamed(connection, target.scope, target.name)
    : await scrollAll(connection, { must: [{ key: 'kind', match: { value: 'document' } }] }, liveRead);
  const { live, shadowed, movedAway } = splitLive(documents, target ? new Set([target.scope]) : undefined);
  const liveIds = new Set(live.map((payload) => String(payload.document_id)));
  const extraIds = new Set(target && extra.ids ? extra.ids.filter((id) => !liveIds.has(id)) : []);
  const doomed = [
    ...shadowed,
    ...documents.filter(
      (payload) => payload.scope === target?.scope && extraIds.has(String(payload.document_id)),
    ),
  ];
  // The copy a marker names goes before the marker; older points of a name before its top.
  await deleteMovedCopies(
    connection,
    [...doomed, ...movedAway].map(movedFrom).filter((source): source is MovedFrom => source !== undefined),
  );
  const stale = [
    ...shadowed.map((payload) => pointId(String(payload.scope), 'document', String(payload.document_id))),
    ...(target ? [...extraIds].map((id) => pointId(target.scope, 'document', id)) : []),
  ];
  if (stale.length > 0) {
    await client.delete(collection, {
      wait: true,
      ordering: 'strong',
      points: [...new Set(stale)],
    });
  }
  await deleteMovedCopies(
    connection,
    movedAway.map((payload) => ({
      scope: String(payload.scope),
      name: String(payload.name),
      version: String(payload.version),
    })),
  );
  const liveVersions = live.map((payload) => String(payload.version));
  const must: unknown[] = [chunkKinds];
  if (target) {
    must.push({ key: 'scope', match: { value: target.scope } });
    must.push({ key: 'document_name', match: { value: target.name } });
  }
  if (graceMs > 0) {
    must.push({
      should: [
        { key: 'written_at', range: { lt: Date.now() - graceMs } },
        { is_empty: { key: 'written_at' } },
      ],
    });
  }
  const filter: Filter = {
    must,
    ...(liveVersions.length > 0 ? { must_not: [{ key: 'version', match: { any: liveVersions } }] } : {}),
  };
  await client.delete(collection, { wait: true, filter: filter as never });
}

/**
 * Deletes the document points of copies that were moved to another set (exactly that scope, name and
 * version: a newer document of the same name in that scope is never touched, so no lock is needed).
 */
export async function deleteMovedCopies(
  connection: QdrantConnection,
  sources: readonly MovedFrom[],
): Promise<void> {
  if (sources.length === 0) return;
  await connection.client.delete(connection.collection, {
    wait: true,
    ordering: 'strong',
    filter: {
      must: [{ key: 'kind', match: { value: 'document' } }],
      should: sources.map((source) => ({
        must: [
          { key: 'scope', match: { value: source.scope } },
          { key: 'name', match: { value: source.name } },
          { key: 'version', match: { value: source.version } },
        ],
      })),
    } as never,
  });
}

/**
 * Removing a file of a scope, under its (scope, name) write lock. The commit is one request that deletes
 * every document point of the name (so no older one shows up); its chunks go after, and a failure there
 * is a warning: they are swept before the next write of the file and at open (qdrant-sweep.ts).
 */
import type { Scope } from '../core/types.ts';
import { describeError } from '../errors.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed } from './qdrant-live-reads.ts';
import { type MovedFrom, movedFrom } from './qdrant-points.ts';
import { deleteMovedCopies, sweep } from './qdrant-sweep.ts';

export async function removeNamed(connection: QdrantConnection, scope: Scope, name: string): Promise<void> {
  // A document that was moved here names the copy it replaced: that copy goes first, for good.
  const sources = (await documentsNamed(connection, scope, name))
    .filter((payload) => payload.scope === scope)
    .map(movedFrom)
    .filter((source): source is MovedFrom => source !== undefined);
  await callQdrant(connection, `remove ${name} (it is still searchable)`, () =>
    deleteMovedCopies(connection, sources),
  );
  // The commit: one request deletes every document point of the name, so no older one shows up.
  const documents = {
    must: [
      { key: 'kind', match: { value: 'document' } },
      { key: 'scope', match: { value: scope } },
      { key: 'name', match: { value: name } },
    ],
  };
  try {
    await connection.client.delete(connection.collection, {
      wait: true,
      ordering: 'strong',
      filter: documents,
    });
  } catch (error) {
    const left = await documentsNamed(connection, scope, name).catch(() => undefined);
    if (left === undefined || left.some((payload) => payload.scope === scope)) {
      await callQdrant(connection, `remove ${name} (it is still searchable)`, () => Promise.reject(error));
    }
  }
  try {
    await sweep(connection, { scope, name }, 0);
  } catch (error) {
    connection.logger?.warn(
      { scope, name, error: describeError(error) },
      'the document is removed, but deleting its chunks failed; they are swept before the next write of this file and at start',
    );
  }
}

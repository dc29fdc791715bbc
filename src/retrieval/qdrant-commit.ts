/**
 * The versioned commit of a document, correct under failure. Qdrant applies one point's write
 * atomically, but a batch runs its operations one after another and never rolls back, so the commit is
 * ONE point write:
 * 1. the new version's parents and children are upserted under a fresh `version` (UUID); every read
 *    filters on live versions, so they stay invisible;
 * 2. commit: the new `document` point is upserted (`ordering: strong`) with `generation` = one more than
 *    any document of that (scope, file name). Readers (`consistency: majority`) take, per (scope, name),
 *    only the highest generation as live — from this single write on, the new version is the one
 *    version searched, even while older document points still exist;
 * 3. clean-up: older document points of that name, then every chunk of that name not of the live
 *    version, are deleted. A failure here is logged as a warning, not reported as a failed write: the
 *    new version is live. Leftovers (of a failed clean-up, or of a process that died at any step) are
 *    swept before the next write of that (scope, name) and when the index is opened (qdrant-sweep.ts).
 * A commit request that fails is checked by reading the document back: it may have been applied.
 * A re-index (`onlyIfCurrent`) commits only while the document it read is still the live one of its name.
 * The caller holds the write lock of the (scope, name) (qdrant-write-locks.ts).
 */
import type { DocumentRecord, Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { describeError, RagentError } from '../errors.ts';
import type { ReplaceDocumentInput } from './chunk-index.ts';
import { documentChanged } from './document-changed.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveRead } from './qdrant-live-reads.ts';
import { chunkPoints, documentPayload, type Payload, pointId, splitLive } from './qdrant-points.ts';
import { sweep } from './qdrant-sweep.ts';

/** The size of the document's dense vectors (null: BM25 only); throws when they differ. */
export function denseDimension(input: ReplaceDocumentInput): number | null {
  const { document, children } = input;
  const dimension = children.find((child) => child.dense)?.dense?.length ?? null;
  if (dimension !== null && children.some((child) => child.dense?.length !== dimension)) {
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.denseVectorsMissingOrUneven({ name: document.name }),
    );
  }
  return dimension;
}

/** Steps 1–3 for one document, under its (scope, name) write lock. */
export async function writeVersion(connection: QdrantConnection, input: ReplaceDocumentInput): Promise<void> {
  const { document } = input;
  const scope = document.scope;
  await sweep(connection, { scope, name: document.name }, 0).catch((error: unknown) =>
    connection.logger?.warn(
      { scope, name: document.name, error: describeError(error) },
      'sweeping leftovers before a write failed',
    ),
  );
  const version = crypto.randomUUID();
  const unchanged = 'the previous version (if any) is still the one searched';
  await callQdrant(connection, `write the chunks of ${document.name} (${unchanged})`, () =>
    upsertChunks(connection, input, version),
  );
  const existing = await documentsNamed(connection, scope, document.name).catch((error: unknown) =>
    callQdrant(connection, `write ${document.name} (${unchanged})`, () =>
      Promise.reject(error instanceof RagentError && error.code === 'QDRANT_FAILED' ? error.cause : error),
    ),
  );
  if (input.onlyIfCurrent) {
    const live = splitLive(existing, new Set([scope])).live[0];
    if (live?.document_id !== document.id || live.ingested_at !== document.ingestedAt) {
      // The chunks just written are of no live version: swept now, or before the next write of the file.
      await sweep(connection, { scope, name: document.name }, 0).catch(() => {});
      throw documentChanged(document);
    }
  }
  const generation = nextGeneration(existing, scope);
  await commitDocument(connection, document, documentPayload(document, version, generation), unchanged);
  try {
    await sweep(connection, { scope, name: document.name }, 0, { ids: input.replaces ?? [] });
  } catch (error) {
    connection.logger?.warn(
      { scope, name: document.name, documentId: document.id, error: describeError(error) },
      'the new version is live, but removing the old one failed; it is swept before the next write of this file and at start',
    );
  }
}

async function upsertChunks(
  connection: QdrantConnection,
  input: ReplaceDocumentInput,
  version: string,
): Promise<void> {
  const points = chunkPoints(input, version, Date.now());
  const size = connection.batchSize;
  for (let start = 0; start < points.length; start += size) {
    await connection.client.upsert(connection.collection, {
      wait: true,
      points: points.slice(start, start + size),
    });
  }
}

/**
 * The one write that makes `payload.version` live. A failed request may still have been applied: read
 * back; `unchanged` says, in the error, what is still searched when it was not.
 */
export async function commitDocument(
  connection: QdrantConnection,
  document: DocumentRecord,
  payload: Payload,
  unchanged: string,
): Promise<void> {
  const { client, collection } = connection;
  const id = pointId(document.scope, 'document', document.id);
  const version = payload.version;
  try {
    await client.upsert(collection, {
      wait: true,
      ordering: 'strong',
      points: [{ id, vector: {}, payload }],
    });
  } catch (error) {
    const applied = await client
      .retrieve(collection, { ids: [id], with_payload: true, ...liveRead })
      .then(([point]) => (point?.payload as Payload | undefined)?.version === version)
      .catch(() => false);
    if (applied) return;
    await callQdrant(connection, `write ${document.name} (${unchanged})`, () => Promise.reject(error));
  }
}

/** One more than any document point of `scope` among `documents` (those of (scope, name)). */
export function nextGeneration(documents: readonly Payload[], scope: Scope): number {
  const own = documents.filter((payload) => payload.scope === scope);
  return Math.max(0, ...own.map((payload) => Number(payload.generation ?? 0))) + 1;
}

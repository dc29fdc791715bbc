/**
 * The move of a document to another scope, correct under failure: the versioned commit of
 * qdrant-commit.ts, in the target scope, carrying a marker that takes the source copy out of every read
 * from that one write on. Both (scope, name) write locks are taken, in a fixed order (sorted by scope),
 * so no two writers wait for each other. Then:
 * 1. leftovers of both names are swept — the source's strictly (an older document point of it left
 *    behind would be live again once the moved copy's point is deleted), and a copy the source's own
 *    marker names (an earlier move here, clean-up pending) goes too: so a copy a marker names never
 *    carries a marker of its own, and deleting it can never bring a third copy back;
 * 2. the source's chunks are copied, vectors and all, into the target scope under a fresh version:
 *    invisible, as no document point names that version yet;
 * 3. commit, ONE point write (`ordering: strong`): the target's document point, with the version, a
 *    generation above any of that name there, the same record (uploader, link) and the marker
 *    `moved_from_scope` + `moved_from_version`. Readers (`consistency: majority`) fetch the markers
 *    of moves out of the scopes they read, and from this write on take the source copy as gone — so
 *    a search sees the document in exactly one of the two scopes before, during and after;
 * 4. clean-up: the source's document point (exactly that version), then its chunks. A failure here is
 *    a move done with clean-up pending (a warning): the source is not live, and is swept before the
 *    next write of either name and at open. A marker's document point is only ever deleted after the
 *    copy it names (sweep, removal), so that copy never comes back.
 */
import type { DocumentRecord, Scope } from '../core/types.ts';
import { errorMessageAdditions } from '../error-messages-en.ts';
import { describeError, RagentError } from '../errors.ts';
import type { MoveOutcome } from './chunk-index.ts';
import { moveSourceMissing, moveTargetTaken } from './move-errors.ts';
import { commitDocument, nextGeneration } from './qdrant-commit.ts';
import { callQdrant, type QdrantConnection } from './qdrant-connection.ts';
import { documentsNamed, liveDocuments, liveRead } from './qdrant-live-reads.ts';
import {
  chunkKinds,
  documentPayload,
  movedFrom,
  type Payload,
  pointId,
  splitLive,
  toDocument,
} from './qdrant-points.ts';
import { deleteMovedCopies, sweep } from './qdrant-sweep.ts';
import type { WriteLocks } from './qdrant-write-locks.ts';

/** Moves the live document `documentId` (named `name`) from `from` to `to`, holding both write locks. */
export function moveDocument(
  connection: QdrantConnection,
  locks: WriteLocks,
  move: { documentId: string; name: string; from: Scope; to: Scope },
): Promise<MoveOutcome> {
  const { documentId, name, from, to } = move;
  const [first, second] = [from, to].sort();
  return locks.exclusive(first!, name, () =>
    locks.exclusive(second!, name, () => moveLocked(connection, documentId, name, from, to)),
  );
}

async function moveLocked(
  connection: QdrantConnection,
  documentId: string,
  name: string,
  from: Scope,
  to: Scope,
): Promise<MoveOutcome> {
  const unchanged = `it is still in ${from} only`;
  const version = crypto.randomUUID();
  const { source, targetDocuments } = await prepareMove(
    connection,
    documentId,
    name,
    from,
    to,
    version,
  ).catch((error: unknown) => {
    throw stillIn(error, name, from);
  });
  const document: DocumentRecord = { ...toDocument(source), scope: to };
  const payload = {
    ...documentPayload(document, version, nextGeneration(targetDocuments, to)),
    moved_from_scope: from,
    moved_from_version: String(source.version),
  };
  await commitDocument(connection, document, payload, unchanged);
  let cleanUpPending = false;
  try {
    await sweep(connection, { scope: from, name }, 0);
  } catch (error) {
    cleanUpPending = true;
    connection.logger?.warn(
      { from, to, name, documentId, error: describeError(error) },
      'the document is moved, but removing the old copy failed; it is no longer searched, and is swept before the next write of this file and at start',
    );
  }
  connection.logger?.debug({ documentId, from, to }, 'moved in Qdrant');
  return { document, cleanUpPending };
}

/** Steps 1–2 of a move: sweeps, checks, the invisible copy of the chunks. */
async function prepareMove(
  connection: QdrantConnection,
  documentId: string,
  name: string,
  from: Scope,
  to: Scope,
  version: string,
): Promise<{ source: Payload; targetDocuments: Payload[] }> {
  await callQdrant(connection, `move ${name}`, () => sweep(connection, { scope: from, name }, 0));
  await sweep(connection, { scope: to, name }, 0).catch((error: unknown) =>
    connection.logger?.warn(
      { scope: to, name, error: describeError(error) },
      'sweeping leftovers before a move failed',
    ),
  );
  const sourceDocuments = await documentsNamed(connection, from, name);
  const source = splitLive(sourceDocuments, new Set([from])).live[0];
  if (!source || source.document_id !== documentId) throw moveSourceMissing(documentId, from);
  // Moved here before with its clean-up pending: that older copy goes now, so that a copy a marker
  // names never carries a marker of its own (deleting it can never bring a third copy back).
  const earlier = movedFrom(source);
  if (earlier) await callQdrant(connection, `move ${name}`, () => deleteMovedCopies(connection, [earlier]));
  const targetDocuments = await documentsNamed(connection, to, name);
  const taken = splitLive(targetDocuments, new Set([to])).live[0];
  if (taken) throw moveTargetTaken(name, to, { name });
  const sameBytes = (await liveDocuments(connection, [to])).find(
    (payload) => payload.document_id === documentId,
  );
  if (sameBytes) throw moveTargetTaken(name, to, { name: String(sameBytes.name) });

  await callQdrant(connection, `copy the chunks of ${name} to ${to}`, () =>
    copyChunks(connection, { scope: from, name, version: String(source.version) }, to, version),
  );
  return { source, targetDocuments };
}

/** Copies the parents and children of one version of (scope, name) into `to` under `version`. */
async function copyChunks(
  connection: QdrantConnection,
  source: { scope: Scope; name: string; version: string },
  to: Scope,
  version: string,
) {
  const filter = {
    must: [
      chunkKinds,
      { key: 'scope', match: { value: source.scope } },
      { key: 'document_name', match: { value: source.name } },
      { key: 'version', match: { value: source.version } },
    ],
  };
  const writtenAt = Date.now();
  let offset: string | number | undefined;
  for (;;) {
    const page = await connection.client.scroll(connection.collection, {
      filter,
      ...liveRead,
      limit: connection.batchSize,
      with_payload: true,
      with_vector: true,
      ...(offset === undefined ? {} : { offset }),
    });
    const points = page.points.map((point) => {
      const payload = point.payload as Payload;
      const kind = String(payload.kind);
      const chunkId = String(kind === 'child' ? payload.child_id : payload.parent_id);
      return {
        id: pointId(to, kind, chunkId, version),
        vector: (point.vector ?? {}) as never,
        payload: { ...payload, scope: to, version, written_at: writtenAt },
      };
    });
    if (points.length > 0) await connection.client.upsert(connection.collection, { wait: true, points });
    const next = page.next_page_offset;
    if (next === null || next === undefined || typeof next === 'object') return;
    offset = next;
  }
}

/** A failure before a move's commit, saying that nothing moved. */
export function stillIn(error: unknown, name: string, from: Scope): unknown {
  if (!(error instanceof RagentError) || !error.code.startsWith('QDRANT_')) return error;
  return new RagentError(
    error.code,
    errorMessageAdditions.nothingMoved({ message: error.message, name, from }),
    {
      cause: error,
      ...(error.details ? { details: error.details } : {}),
    },
  );
}

/**
 * The move of a document between scopes in the embedded store: one transaction re-scopes its rows (its
 * record with uploader and link, parents, children with their vectors, and its part of the compact
 * vector table): nothing is extracted or embedded again, and a search sees the document in exactly one
 * of the two scopes whatever stops the transaction.
 */
import type { DocumentRecord, Scope } from '../core/types.ts';
import type { MoveOutcome } from './chunk-index.ts';
import { moveSourceMissing, moveTargetTaken, moveToSameScope } from './move-errors.ts';
import type { SnapshotRow } from './segment-parts.ts';
import type { LiveSnapshot } from './sqlite-live-snapshot.ts';
import { bumpWriteGeneration } from './sqlite-meta.ts';
import { guardWrite, type SqliteStore } from './sqlite-open.ts';
import { type DocumentRow, toDocument } from './sqlite-rows.ts';
import { applyWrite } from './sqlite-snapshot-refresh.ts';

/** The steps of a move, each one statement of the same transaction. */
export type MoveStep = 'document' | 'parents' | 'children';

export async function moveDocument(
  store: SqliteStore,
  live: LiveSnapshot,
  beforeMoveStep: (step: MoveStep) => void,
  move: { documentId: string; from: Scope; to: Scope },
): Promise<MoveOutcome> {
  const { db } = store;
  const { documentId, from, to } = move;
  if (from === to) throw moveToSameScope(from);
  let moved: DocumentRecord | undefined;
  const deleted: number[] = [];
  const rows: SnapshotRow[] = [];
  const write = db.transaction(() => {
    deleted.length = 0;
    rows.length = 0;
    const row = db.prepare('SELECT * FROM documents WHERE scope = ? AND id = ?').get(from, documentId) as
      | DocumentRow
      | undefined;
    if (!row) throw moveSourceMissing(documentId, from);
    const taken = db
      .prepare('SELECT name FROM documents WHERE scope = ? AND (name = ? OR id = ?) ORDER BY name = ? DESC')
      .get(to, row.name, documentId, row.name) as { name: string } | undefined;
    if (taken) throw moveTargetTaken(row.name, to, taken);
    bumpWriteGeneration(db);
    beforeMoveStep('document');
    db.prepare('UPDATE documents SET scope = ? WHERE scope = ? AND id = ?').run(to, from, documentId);
    beforeMoveStep('parents');
    db.prepare('UPDATE parents SET scope = ? WHERE scope = ? AND document_id = ?').run(to, from, documentId);
    beforeMoveStep('children');
    deleted.push(
      ...(db
        .prepare('SELECT key FROM children WHERE scope = ? AND document_id = ?')
        .pluck()
        .all(from, documentId) as number[]),
    );
    db.prepare('UPDATE children SET scope = ? WHERE scope = ? AND document_id = ?').run(to, from, documentId);
    // The compact vector table carries the scope too: a cold load must find the children in their new set.
    db.prepare('UPDATE vector_pages SET scope = ? WHERE scope = ? AND document_id = ?').run(
      to,
      from,
      documentId,
    );
    // The snapshot marks the rows deleted and adds them again under their new scope (same keys).
    const tuples = db
      .prepare('SELECT key, scope, sparse, quantized FROM children WHERE scope = ? AND document_id = ?')
      .raw()
      .all(to, documentId) as Array<[number, string, Uint8Array | null, Uint8Array | null]>;
    for (const [rowid, scope, sparse, quantized] of tuples) rows.push({ rowid, scope, sparse, quantized });
    moved = toDocument({ ...row, scope: to });
  });
  guardWrite(store.file, write);
  applyWrite(live, { deleted, rows });
  store.logger?.debug({ documentId, from, to, children: rows.length }, 'moved');
  return { document: moved!, cleanUpPending: false };
}

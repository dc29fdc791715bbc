/** The refusals of a move between scopes, the same from both index backends. */
import type { Scope } from '../core/types.ts';
import { RagentError } from '../errors.ts';

export function moveSourceMissing(documentId: string, from: Scope): RagentError {
  return new RagentError(
    'DOCUMENT_NOT_FOUND',
    `No document ${documentId.slice(0, 12)} in ${from} (it may have just been removed or moved). ` +
      `List them with \`ragent docs list --scope ${from}\`.`,
    { details: { documentId, from } },
  );
}

/** `to` already holds a document of that name (or those very bytes under another name). */
export function moveTargetTaken(name: string, to: Scope, existing: { name: string }): RagentError {
  const what =
    existing.name === name
      ? `a document named ${name}`
      : `the same file as ${existing.name} (identical bytes)`;
  return new RagentError(
    'DOCUMENT_NAME_TAKEN',
    `${to} already has ${what}. Nothing was moved: remove one of the two first ` +
      `(\`ragent docs remove ${existing.name} --scope ${to}\`), then move again.`,
    { details: { name, to, existing: existing.name } },
  );
}

export function moveToSameScope(scope: Scope): RagentError {
  return new RagentError('MOVE_REFUSED', `The document is already in ${scope}: nothing to move.`);
}

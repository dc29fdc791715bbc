/** The refusals of a move between scopes, the same from both index backends. */
import type { Scope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

export function moveSourceMissing(documentId: string, from: Scope): RagentError {
  return new RagentError('DOCUMENT_NOT_FOUND', errorMessages.DOCUMENT_NOT_FOUND.byId({ documentId, from }), {
    details: { documentId, from },
  });
}

/** `to` already holds a document of that name (or those very bytes under another name). */
export function moveTargetTaken(name: string, to: Scope, existing: { name: string }): RagentError {
  const what =
    existing.name === name
      ? `a document named ${name}`
      : `the same file as ${existing.name} (identical bytes)`;
  return new RagentError(
    'DOCUMENT_NAME_TAKEN',
    errorMessages.DOCUMENT_NAME_TAKEN({ to, what, existing: existing.name }),
    { details: { name, to, existing: existing.name } },
  );
}

export function moveToSameScope(scope: Scope): RagentError {
  return new RagentError('MOVE_REFUSED', errorMessages.MOVE_REFUSED.alreadyThere({ scope }));
}

/** The refusal of a conditional write (`onlyIfCurrent`), the same from both index backends. */
import type { DocumentRecord } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';

export function documentChanged(document: DocumentRecord): RagentError {
  return new RagentError(
    'DOCUMENT_CHANGED',
    errorMessages.DOCUMENT_CHANGED({ name: document.name, scope: document.scope }),
    { details: { documentId: document.id, scope: document.scope, name: document.name } },
  );
}

/** The refusal of a conditional write (`onlyIfCurrent`), the same from both index backends. */
import type { DocumentRecord } from '../core/types.ts';
import { RagentError } from '../errors.ts';

export function documentChanged(document: DocumentRecord): RagentError {
  return new RagentError(
    'DOCUMENT_CHANGED',
    `${document.name} in ${document.scope} was replaced or removed while it was being re-indexed; ` +
      'the newer state is kept. Run `ragent reindex` again if it still needs it.',
    { details: { documentId: document.id, scope: document.scope, name: document.name } },
  );
}

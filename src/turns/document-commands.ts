/**
 * The chat commands on documents, once for every platform: `docs` lists what the caller's scopes
 * can search; `forget` finds a document of the platform's own scope, lets only its uploader or an
 * admin (the platform says who is one: a workspace admin, a member with Manage Server) remove it,
 * and removes it. Platforms parse their command and render the outcome.
 */
import type { DocumentRecord, Ingestion, Scope } from '../core/types.ts';
import type { Logger } from '../logger.ts';

export type ForgetOutcome =
  | { kind: 'removed'; document: DocumentRecord }
  | { kind: 'denied'; document: DocumentRecord };

export function listDocuments(ingestion: Ingestion, scopes: readonly Scope[]): Promise<DocumentRecord[]> {
  return ingestion.listDocuments(scopes);
}

/** Throws DOCUMENT_NOT_FOUND when the scope has no such document. */
export async function forgetDocument(
  ingestion: Ingestion,
  request: {
    idOrName: string;
    scope: Scope;
    /** The caller as documents record their uploader. */
    uploader: string;
    /** Asked only when the caller did not upload the document. */
    isAdmin(): Promise<boolean>;
    logger: Logger;
  },
): Promise<ForgetOutcome> {
  const { scope } = request;
  const document = await ingestion.findDocument({ idOrName: request.idOrName, scope });
  if (document.uploader !== request.uploader && !(await request.isAdmin()))
    return { kind: 'denied', document };
  const removed = await ingestion.removeDocument({ idOrName: document.id, scope });
  request.logger.info({ documentId: removed.id, uploader: request.uploader, scope }, 'document removed');
  return { kind: 'removed', document: removed };
}

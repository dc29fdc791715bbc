/**
 * The chat commands on documents, once for every platform: `docs` lists what the caller's scopes
 * can search, grouped by set; `forget` finds a document in the channel's set first, then the
 * workspace's/server's, lets only its uploader or an
 * admin (the platform says who is one: a workspace admin, a member with Manage Server) remove it,
 * and removes it; `move` moves a document between the channel's set and the workspace's/server's
 * (never elsewhere: both sets come from where the command was run), with the same permission rule.
 * Platforms parse their command and render the outcome.
 */
import { type DocumentRecord, type Ingestion, type Scope, sharedScope } from '../core/types.ts';
import { errorMessages } from '../error-messages-en.ts';
import { RagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { IngestTarget } from './ingest-target.ts';
import { type DocumentSet, setName } from './messages-en.ts';

export type ForgetOutcome =
  | { kind: 'removed'; document: DocumentRecord }
  | { kind: 'denied'; document: DocumentRecord };

export type MoveOutcome =
  | { kind: 'moved'; document: DocumentRecord; from: DocumentSet; to: DocumentSet; cleanUpPending: boolean }
  | { kind: 'denied'; document: DocumentRecord }
  /** The target set already has a document of that name (or those bytes): nothing was replaced. */
  | { kind: 'taken'; document: DocumentRecord; to: DocumentSet };

export function listDocuments(ingestion: Ingestion, scopes: readonly Scope[]): Promise<DocumentRecord[]> {
  return ingestion.listDocuments(scopes);
}

/** The sets a place searches: its channel's (none in a DM), linked channels', the workspace's/server's. */
export interface PlaceSets {
  channel?: Scope;
  linked?: readonly Scope[];
  place: Scope;
  /** `workspace` or `server`. */
  placeName: string;
}

/** Every scope of a place, in the order its sets are shown. */
export function scopesOfSets(sets: PlaceSets): Scope[] {
  return [...(sets.channel ? [sets.channel] : []), ...(sets.linked ?? []), sets.place, sharedScope];
}

/** The documents grouped by set, in the order of `scopesOfSets`; empty sets are left out. */
export function groupBySet(
  documents: readonly DocumentRecord[],
  sets: PlaceSets,
): Array<{ set: DocumentSet; documents: DocumentRecord[] }> {
  const setOf = (scope: Scope): DocumentSet['kind'] =>
    scope === sets.channel
      ? 'channel'
      : scope === sets.place
        ? 'place'
        : scope === sharedScope
          ? 'shared'
          : 'linked';
  const kinds: Array<DocumentSet['kind']> = ['channel', 'linked', 'place', 'shared'];
  return kinds
    .map((kind) => ({
      set: { kind, place: sets.placeName },
      documents: documents.filter((document) => setOf(document.scope) === kind),
    }))
    .filter((group) => group.documents.length > 0);
}

/** How the set a removed document was in is named. */
export function setOfScope(scope: Scope, sets: PlaceSets): DocumentSet {
  return { kind: scope === sets.channel ? 'channel' : 'place', place: sets.placeName };
}

/**
 * Looks in each scope in turn (the channel's set first, then the workspace's/server's): the first
 * that has the document is the one it is removed from. Throws DOCUMENT_NOT_FOUND when none has it.
 */
export async function forgetDocument(
  ingestion: Ingestion,
  request: {
    idOrName: string;
    scopes: readonly Scope[];
    /** The caller as documents record their uploader. */
    uploader: string;
    /** Asked only when the caller did not upload the document (its scope says which set it is in). */
    isAdmin(document: DocumentRecord): Promise<boolean>;
    logger: Logger;
  },
): Promise<ForgetOutcome> {
  const document = await findInScopes(ingestion, request.idOrName, request.scopes);
  const scope = document.scope;
  if (document.uploader !== request.uploader && !(await request.isAdmin(document)))
    return { kind: 'denied', document };
  const removed = await ingestion.removeDocument({ idOrName: document.id, scope });
  request.logger.info({ documentId: removed.id, uploader: request.uploader, scope }, 'document removed');
  return { kind: 'removed', document: removed };
}

async function findInScopes(
  ingestion: Ingestion,
  idOrName: string,
  scopes: readonly Scope[],
): Promise<DocumentRecord> {
  let notFound: unknown;
  for (const scope of scopes) {
    try {
      return await ingestion.findDocument({ idOrName, scope });
    } catch (error) {
      if (!(error instanceof RagentError) || error.code !== 'DOCUMENT_NOT_FOUND') throw error;
      notFound = error;
    }
  }
  throw (
    notFound ??
    new RagentError('DOCUMENT_NOT_FOUND', errorMessages.DOCUMENT_NOT_FOUND.here({ wanted: idOrName.trim() }))
  );
}

/**
 * Moves a document between the channel's set and the workspace's/server's: `to` names the set it goes
 * to, the other one is where it is looked up. Allowed for its uploader or an admin (asked about the
 * document where it is now, as for `forget`). The move itself is atomic (Ingestion.moveDocument).
 */
export async function moveDocument(
  ingestion: Ingestion,
  request: {
    idOrName: string;
    sets: PlaceSets;
    to: IngestTarget;
    uploader: string;
    isAdmin(document: DocumentRecord): Promise<boolean>;
    logger: Logger;
  },
): Promise<MoveOutcome> {
  const { sets } = request;
  if (!sets.channel)
    throw new RagentError(
      'MOVE_REFUSED',
      errorMessages.MOVE_REFUSED.needsChannel({ placeName: sets.placeName }),
    );
  const [from, to] = request.to === 'channel' ? [sets.place, sets.channel] : [sets.channel, sets.place];
  const document = await ingestion
    .findDocument({ idOrName: request.idOrName, scope: from })
    .catch(async (error: unknown) => {
      if (!(error instanceof RagentError) || error.code !== 'DOCUMENT_NOT_FOUND') throw error;
      const there = await ingestion
        .findDocument({ idOrName: request.idOrName, scope: to })
        .catch(() => undefined);
      const wanted = request.idOrName.trim();
      throw new RagentError(
        'DOCUMENT_NOT_FOUND',
        there
          ? errorMessages.DOCUMENT_NOT_FOUND.moveAlreadyIn({
              wanted,
              alreadyIn: setName(setOfScope(to, sets)),
            })
          : errorMessages.DOCUMENT_NOT_FOUND.moveFrom({ wanted, set: setName(setOfScope(from, sets)) }),
        { cause: error },
      );
    });
  if (document.uploader !== request.uploader && !(await request.isAdmin(document)))
    return { kind: 'denied', document };
  try {
    const report = await ingestion.moveDocument({ idOrName: document.id, from, to });
    request.logger.info(
      {
        documentId: document.id,
        uploader: request.uploader,
        from,
        to,
        cleanUpPending: report.cleanUpPending,
      },
      'document moved',
    );
    return {
      kind: 'moved',
      document: report.document,
      from: setOfScope(from, sets),
      to: setOfScope(to, sets),
      cleanUpPending: report.cleanUpPending,
    };
  } catch (error) {
    if (error instanceof RagentError && error.code === 'DOCUMENT_NAME_TAKEN')
      return { kind: 'taken', document, to: setOfScope(to, sets) };
    throw error;
  }
}

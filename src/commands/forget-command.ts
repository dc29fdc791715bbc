/**
 * `forget <name>`: removes a document from this channel's set, or else the workspace's/server's. Its
 * uploader may; so may who manages the place, or (for a document in this channel's set) the channel.
 */
import type { DocumentRecord } from '../core/types.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import { forgetDocument, setOfScope } from '../turns/document-commands.ts';
import { type DocumentSet, forgetDeniedText, removedText } from '../turns/messages-en.ts';
import { type CommandOperation, type CommandRequest, textArgument } from './command-request.ts';

export const forgetCommand: CommandOperation = async (request, services) => {
  const { sets } = request.place;
  const { markup } = request;
  const outcome = await forgetDocument(services.ingestion, {
    idOrName: textArgument(request, 'name'),
    scopes: [sets.channel ?? sets.place, sets.place],
    uploader: request.actor.id,
    isAdmin: managesDocument(request),
    logger: services.logger,
  });
  return outcome.kind === 'denied'
    ? `${markup.icons.warning} ${forgetDeniedText(markup.literal(outcome.document.name), markup.terms)}`
    : removedReplyText(outcome.document, setOfScope(outcome.document.scope, sets), markup);
};

export function removedReplyText(document: DocumentRecord, set: DocumentSet, markup: ChatMarkup): string {
  const name = markup.bold(markup.literal(document.name));
  return `${markup.icons.removed} ${removedText(name, document.pages, set)}`;
}

/** Who may forget or move a document they did not add. */
export function managesDocument(request: CommandRequest): (document: DocumentRecord) => Promise<boolean> {
  return async (document) =>
    (await request.actor.managesPlace()) ||
    (document.scope === request.place.sets.channel && (await request.actor.managesChannel()));
}

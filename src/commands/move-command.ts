/**
 * `move <name> to channel|workspace`: between this channel's set and the workspace's/server's, with
 * forget's permission rule.
 */
import { moveDocument } from '../turns/document-commands.ts';
import { parseIngestTarget } from '../turns/ingest-target.ts';
import { moveDeniedText, movedText, moveTakenText } from '../turns/messages-en.ts';
import { type CommandOperation, textArgument } from './command-request.ts';
import { managesDocument } from './forget-command.ts';

export const moveCommand: CommandOperation = async (request, services) => {
  const outcome = await moveDocument(services.ingestion, {
    idOrName: textArgument(request, 'name'),
    sets: request.place.sets,
    to: parseIngestTarget(textArgument(request, 'to').toLowerCase(), 'channel'),
    uploader: request.actor.id,
    isAdmin: managesDocument(request),
    logger: services.logger,
  });
  const { markup } = request;
  const name = markup.bold(markup.literal(outcome.document.name));
  switch (outcome.kind) {
    case 'moved':
      return `${markup.icons.moved} ${movedText(name, outcome.from, outcome.to, outcome.cleanUpPending)}`;
    case 'denied':
      return `${markup.icons.warning} ${moveDeniedText(name, markup.terms)}`;
    case 'taken':
      return `${markup.icons.warning} ${moveTakenText(name, outcome.to)}`;
  }
};

/** `docs`: the documents a question here searches, by set, within one message (then the auto-answer line). */
import type { DocumentRecord } from '../core/types.ts';
import { withLinks } from '../turns/channel-links.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import { groupBySet, listDocuments, scopesOfSets } from '../turns/document-commands.ts';
import {
  type DocumentSet,
  documentLineText,
  documentSetsIntro,
  moreLinesText,
  noDocumentsText,
  setTitle,
} from '../turns/messages-en.ts';
import type { CommandOperation } from './command-request.ts';
import { withAutoAnswerStatus } from './with-auto-answer-status.ts';

/** Room kept under the platform's limit for the auto-answer line that follows the list. */
const statusRoom = 200;

export const listDocumentsCommand: CommandOperation = async (request, services) => {
  const sets = await withLinks(services.coordination, request.place.sets, services.logger);
  const documents = await listDocuments(services.ingestion, scopesOfSets(sets));
  const text = documentListText(groupBySet(documents, sets), request.markup, request.maxLength - statusRoom);
  return withAutoAnswerStatus(text, request, services);
};

/** The documents grouped by set; lines that do not fit in `maxLength` are counted instead. */
export function documentListText(
  groups: ReadonlyArray<{ set: DocumentSet; documents: readonly DocumentRecord[] }>,
  markup: ChatMarkup,
  maxLength: number,
): string {
  if (groups.length === 0) return noDocumentsText(markup.terms);
  const lines: string[] = [documentSetsIntro];
  for (const group of groups) {
    lines.push(
      `${markup.bold(setTitle(group.set))} (${group.documents.length})`,
      ...group.documents.map((document) => documentLine(document, markup)),
    );
  }
  let text = '';
  for (const [index, line] of lines.entries()) {
    const more = `\n${moreLinesText(lines.length - index)}`;
    if (text.length + line.length + 1 + more.length > maxLength) return `${text}${more}`;
    text += (text ? '\n' : '') + line;
  }
  return text;
}

function documentLine(document: DocumentRecord, markup: ChatMarkup): string {
  return documentLineText(
    markup.bold(markup.literal(document.name)),
    document.pages,
    markup.uploader?.(document.uploader),
    document.ingestedAt.slice(0, 10),
    markup.code(document.id.slice(0, 8)),
  );
}

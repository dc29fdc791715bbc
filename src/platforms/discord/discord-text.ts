/**
 * The Discord-only texts (thread permissions, command forms, document lists) and the Discord
 * formatting of shared words; everything else comes from the messages module.
 */
import { escapeMarkdown } from 'discord.js';
import type { DocumentRecord } from '../../core/types.ts';
import { toRagentError } from '../../errors.ts';
import type { MoveOutcome } from '../../turns/document-commands.ts';
import {
  clarificationHint,
  type DocumentSet,
  documentSetsIntro,
  forgetDeniedText as forgetDeniedWords,
  helpIntro,
  helpTopics,
  moveDeniedText,
  movedText,
  moveTakenText,
  noDocumentsText,
  type PlatformTerms,
  removedText,
  setTitle,
} from '../../turns/messages-en.ts';

/** How Discord people call its places and commands. */
export const discordTerms: PlatformTerms = {
  place: 'this server',
  admin: 'a member with Manage Server (or Manage Channels, for a channel’s documents)',
  ingestCommand: '`/ragent ingest file: for:` (or `url:` for a web page)',
  docsCommand: '`/ragent docs`',
  forgetCommand: '`/ragent forget name:`',
  useCommand: '`/ragent use channel:` (`unuse` to undo)',
  moveCommand: '`/ragent move name: to:`',
};

export function clarificationText(question: string, messageContentIntent: boolean): string {
  return `❓ ${question}\n-# ${clarificationHint(messageContentIntent)}`;
}

export function stoppedText(message: string): string {
  return `⏹️ ${message}`;
}

/** A failure as a person should read it: what went wrong and what to do. */
export function errorText(error: unknown): string {
  return `⚠️ ${toRagentError(error).message}`;
}

export function helpText(messageContentIntent: boolean): string {
  return [
    `**${helpIntro(discordTerms)}**`,
    '',
    ...helpTopics(discordTerms, messageContentIntent).map(([topic, text]) => `**${topic}:** ${text}`),
  ].join('\n');
}

/**
 * Text shown exactly as it is (a file name, an uploader): discord.js escapes emphasis, code and
 * spoilers, but not masked links or angle brackets, so a file named `[Verify](https://evil.example)
 * notice.pdf` would otherwise become a live link in a message or an embed.
 */
export function literalText(text: string): string {
  return escapeMarkdown(text).replace(/[[\]()<>]/g, '\\$&');
}

export function forgottenText(document: DocumentRecord, set: DocumentSet): string {
  return `🗑️ ${removedText(`**${literalText(document.name)}**`, document.pages, set)}`;
}

export function movedDocumentText(outcome: MoveOutcome): string {
  const name = `**${literalText(outcome.document.name)}**`;
  switch (outcome.kind) {
    case 'moved':
      return `📦 ${movedText(name, outcome.from, outcome.to, outcome.cleanUpPending)}`;
    case 'denied':
      return `⚠️ ${moveDeniedText(name, discordTerms)}`;
    case 'taken':
      return `⚠️ ${moveTakenText(name, outcome.to)}`;
  }
}

export function forgetDeniedText(document: DocumentRecord): string {
  return `⚠️ ${forgetDeniedWords(`**${literalText(document.name)}**`, discordTerms)}`;
}

/** The documents a channel can search, grouped by set, within `maxLength`. */
export function documentListText(
  groups: ReadonlyArray<{ set: DocumentSet; documents: readonly DocumentRecord[] }>,
  maxLength: number,
): string {
  if (groups.length === 0) return noDocumentsText(discordTerms);
  const lines: string[] = [documentSetsIntro];
  for (const group of groups) {
    lines.push(
      `**${setTitle(group.set)}** (${group.documents.length})`,
      ...group.documents.map(documentLine),
    );
  }
  let text = '';
  for (const [index, line] of lines.entries()) {
    const more = `\n… and ${lines.length - index} more lines.`;
    if (text.length + line.length + 1 + more.length > maxLength) return `${text}${more}`;
    text += (text ? '\n' : '') + line;
  }
  return text;
}

function documentLine(document: DocumentRecord): string {
  const uploader = /^discord:(\d+)$/.exec(document.uploader);
  const by = uploader ? `<@${uploader[1]}>` : literalText(document.uploader);
  const day = document.ingestedAt.slice(0, 10);
  return `• **${literalText(document.name)}** — ${plural(document.pages, 'page')}, added by ${by} on ${day} · \`${document.id.slice(0, 8)}\``;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

/** `/ragent ingest` with neither a file nor a web address. */
export function nothingToIngestText(urlText: string): string {
  return urlText
    ? `${urlText.slice(0, 200)} is not a web address: give one starting with http:// or https://.`
    : 'Give a `file:` to add, or a `url:` of a web page.';
}

/** Auto-answer without the Message Content intent: Discord withholds the text it would judge. */
export const autoAnswerNeedsContentText =
  '⚠️ But I cannot read messages that do not mention me: the bot owner must tick “Message Content Intent” in the developer portal (Bot page) and set DISCORD_MESSAGE_CONTENT=true.';

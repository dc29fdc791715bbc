/**
 * The Discord-only texts (thread permissions, command forms, document lists) and the Discord
 * formatting of shared words; everything else comes from the messages module.
 */
import { escapeMarkdown } from 'discord.js';
import type { DocumentRecord, Scope } from '../../core/types.ts';
import { describeError, isRagentError } from '../../errors.ts';

export function clarificationText(question: string, messageContentIntent: boolean): string {
  const how = messageContentIntent
    ? 'Reply in this thread to continue.'
    : 'Reply to this message (or mention me) to continue.';
  return `❓ ${question}\n-# ${how}`;
}

export function stoppedText(message: string): string {
  return `⏹️ ${message}`;
}

/** A failure as a person should read it: what went wrong and what to do. */
export function errorText(error: unknown): string {
  if (isRagentError(error)) return `⚠️ ${error.message}`;
  return `⚠️ Something went wrong on our side (${shorten(describeError(error), 120)}). The details are in the log; try again in a moment.`;
}

export const emptyQuestionText =
  'Ask me a question after the mention, e.g. `@ragent how do I loop over files in bash?` I answer from the PDFs added with `/ragent ingest`.';

export const unreadableReplyText =
  "I can't read replies that don't mention me. Reply again with the mention (or keep the reply ping on).";

export const threadFailedText =
  "I couldn't start a thread here. Give me the Create Public Threads and Send Messages in Threads permissions in this channel, or mention me inside a thread.";

export const guildOnlyText = 'Documents belong to a server: use this command in a server channel.';

export function helpText(messageContentIntent: boolean): string {
  return [
    '**ragent** answers questions from the PDFs added to this server.',
    '',
    '**Ask:** mention me with a question — `@ragent how do I …?` I answer in a thread, with the sources.',
    messageContentIntent
      ? '**Follow up:** keep writing in the thread; if I ask you something back, just reply.'
      : '**Follow up:** in the thread, mention me or reply to one of my messages; if I ask you something back, reply to it.',
    '**Add a PDF:** `/ragent ingest file:` and attach it. Only this server will see it.',
    '**List documents:** `/ragent docs`',
    '**Remove one:** `/ragent forget name:` — the person who added it, or anyone with Manage Server.',
    '**Feedback:** use 👍 / 👎 under an answer.',
  ].join('\n');
}

export function notPdfAttachmentText(name: string): string {
  return `${name} isn't a PDF. I can only add PDF documents.`;
}

export function forgottenText(document: DocumentRecord): string {
  return `🗑️ Removed **${escapeMarkdown(document.name)}** (${plural(document.pages, 'page')}) from this server's documents.`;
}

export function forgetDeniedText(document: DocumentRecord): string {
  return `⚠️ Only the person who added **${escapeMarkdown(document.name)}** or a member with the Manage Server permission can remove it.`;
}

/** The documents a server can search, grouped by where they come from, within `maxLength`. */
export function documentListText(
  documents: readonly DocumentRecord[],
  ownScope: Scope,
  maxLength: number,
): string {
  if (documents.length === 0) {
    return 'No documents yet. Add a PDF with `/ragent ingest file:` and attach it.';
  }
  const own = documents.filter((document) => document.scope === ownScope);
  const shared = documents.filter((document) => document.scope !== ownScope);
  const lines: string[] = [];
  if (own.length > 0) lines.push(`**This server** (${own.length})`, ...own.map(documentLine));
  if (shared.length > 0) lines.push(`**Shared** (${shared.length})`, ...shared.map(documentLine));
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
  const by = uploader ? `<@${uploader[1]}>` : escapeMarkdown(document.uploader);
  const day = document.ingestedAt.slice(0, 10);
  return `• **${escapeMarkdown(document.name)}** — ${plural(document.pages, 'page')}, added by ${by} on ${day} · \`${document.id.slice(0, 8)}\``;
}

function plural(count: number, word: string): string {
  return `${count.toLocaleString('en-US')} ${word}${count === 1 ? '' : 's'}`;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

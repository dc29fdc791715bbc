/** Everything the Discord adapter says to people, in one place. */
import { escapeMarkdown } from 'discord.js';
import type { DocumentRecord, IngestProgress, IngestReport, Scope } from '../../core/types.ts';
import { describeError, isRagentError } from '../../errors.ts';

export const thinkingText = '⏳ Thinking…';

export function statusText(description: string): string {
  return `⏳ ${description}`;
}

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
  "⚠️ I couldn't start a thread here. Give me the Create Public Threads and Send Messages in Threads permissions in this channel, or mention me inside a thread.";

export const shuttingDownText = '⏹️ I was restarted before I could answer. Mention me again to ask once more.';

/** Put in a thread whose answer a crash cut short, when the bot starts again. */
export const restartedText = '🔄 ragent restarted before it could finish answering this; please ask again.';

/** Replaces the reply of an ingest a crash cut short (an ingest is atomic: nothing was added). */
export function interruptedIngestText(name: string): string {
  return `🔄 ragent restarted while ingesting **${escapeMarkdown(name)}**; nothing was added — run \`/ragent ingest\` again.`;
}

export const restartingText = 'ragent is restarting. Try again in a minute.';

export const guildOnlyText = 'Documents belong to a server: use this command in a server channel.';

export const feedbackThanksText = (value: 'up' | 'down') =>
  value === 'up'
    ? 'Thanks — glad it helped. 👍 recorded.'
    : 'Thanks — 👎 recorded; it helps improve the answers.';

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

const stageWords: Record<IngestProgress['stage'], string> = {
  reading: 'Reading',
  extracting: 'Extracting text',
  chunking: 'Splitting into sections',
  embedding: 'Embedding',
  indexing: 'Indexing',
  done: 'Finishing',
};

export function ingestProgressText(name: string, progress: IngestProgress): string {
  const counter = progress.total > 0 ? ` — ${progress.done}/${progress.total} ${progress.unit}` : '';
  return `⏳ **${escapeMarkdown(name)}**: ${stageWords[progress.stage]}${counter}…`;
}

export function downloadingText(name: string): string {
  return `⏳ **${escapeMarkdown(name)}**: downloading…`;
}

export function ingestReportText(report: IngestReport): string {
  const { document } = report;
  const name = `**${escapeMarkdown(document.name)}**`;
  const facts = `${plural(document.pages, 'page')}, ${plural(document.children, 'chunk')}`;
  const seconds = `${report.seconds.toFixed(1)} s`;
  switch (report.status) {
    case 'ingested':
      return `✅ Added ${name} to this server's documents: ${facts} in ${seconds}. Mention me to ask about it.`;
    case 'replaced':
      return `✅ Replaced ${name} with the new version: ${facts} in ${seconds}.`;
    case 'unchanged':
      return `✅ ${name} is already in this server's documents, unchanged (${facts}).`;
  }
}

export function notPdfAttachmentText(name: string): string {
  return `⚠️ **${escapeMarkdown(name)}** isn't a PDF. I can only add PDF documents.`;
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

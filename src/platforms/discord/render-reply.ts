/**
 * How Discord shows what the turn runner decides to show: statuses (`⏳ …`, ingest progress) and
 * replies, composed by the core (`replies/compose-reply.ts`), in Discord Markdown split under 2,000
 * characters; an answer with its sources embed and 👍/👎.
 */
import { escapeMarkdown } from 'discord.js';
import type { IngestFileState, Reply, Status } from '../../core/chat-platform.ts';
import { composeReply, type FileLine, fileLines, type ReplyIcon } from '../../replies/compose-reply.ts';
import { closeOpenFence, splitMessage } from '../../replies/split-message.ts';
import { stillWritingText } from '../../turns/messages-en.ts';
import { revealReplyLinks } from '../../turns/reveal-reply-links.ts';
import { discordTerms, literalText } from './discord-text.ts';
import { type MessagePart, messageLimit, renderAnswer, renderText } from './render-answer.ts';

export function renderStatus(status: Status): string {
  if (status.kind === 'ingest') return ingestLines(fileLines(status.files));
  return `⏳ ${status.line}`;
}

/** Marks the last part of an answer while it is still being written. */
const writingMark = `\n-# ✍️ ${stillWritingText}`;

/** An answer as written so far: split (an open code block closed for now), the last part marked. */
export function renderStreamingText(text: string): string[] {
  const parts = splitMessage(closeOpenFence(text), messageLimit - writingMark.length);
  if (parts.length > 0) parts[parts.length - 1] += writingMark;
  return parts;
}

export function renderReply(shown: Reply, options: { messageContentIntent: boolean }): MessagePart[] {
  const reply = revealReplyLinks(shown);
  if (reply.kind === 'answer') return renderAnswer(reply.answer);
  const content = composeReply(reply, {
    readsEveryReply: options.messageContentIntent,
    terms: discordTerms,
    name: (name) => `**${literalText(name)}**`,
    command: (command) => `\`${command}\``,
  });
  const icon = icons[content.icon];
  const said = content.words;
  const lines = [
    content.markdown !== undefined && (said ? content.markdown : `${icon} ${content.markdown}`),
    content.files && ingestLines(content.files),
    said &&
      `${content.markdown !== undefined ? '\n' : ''}${icon}${icon ? ' ' : ''}${content.strong ? `**${said}**` : said}`,
    content.hint && `-# ${content.hint}`,
    content.reference && `-# Reference: ${escapeMarkdown(content.reference)}`,
  ];
  return renderText(lines.filter((line) => typeof line === 'string').join('\n'));
}

const icons: Record<ReplyIcon, string> = {
  question: '❓',
  stopped: '⏹️',
  warning: '⚠️',
  restarted: '🔄',
  'shutting-down': '⏹️',
  info: '',
};

const fileIcons: Record<IngestFileState['state'], string> = {
  waiting: '⏳',
  downloading: '⏳',
  working: '⏳',
  added: '✅',
  failed: '⚠️',
};

function ingestLines(files: readonly FileLine[]): string {
  return files
    .map(
      (file) => `${fileIcons[file.state]} **${literalText(file.name)}** — ${literalText(file.description)}`,
    )
    .join('\n');
}

/**
 * How Discord shows what the turn runner decides to show: statuses (`⏳ …`, ingest progress) and
 * replies, composed by the core (`replies/compose-reply.ts`), in Discord Markdown split under 2,000
 * characters; an answer with its sources embed and 👍/👎.
 */
import type { Reply, Status } from '../../core/chat-platform.ts';
import { fileLines } from '../../replies/compose-reply.ts';
import { layOutReply, type ReplyWriting, writeFileLines } from '../../replies/lay-out-notice.ts';
import { splitWhileWriting } from '../../replies/split-message.ts';
import { stillWritingText } from '../../turns/messages-en.ts';
import { revealReplyLinks } from '../../turns/reveal-reply-links.ts';
import { discordMarkup } from './discord-markup.ts';
import { type MessagePart, messageLimit, renderAnswer, renderText } from './render-answer.ts';

export function renderStatus(status: Status): string {
  if (status.kind === 'ingest') return writeFileLines(fileLines(status.files), discordWriting);
  return `⏳ ${status.line}`;
}

/** Marks the last part of an answer while it is still being written. */
const writingMark = `\n-# ✍️ ${stillWritingText}`;

export function renderStreamingText(text: string): string[] {
  return splitWhileWriting(text, messageLimit, writingMark);
}

export function renderReply(shown: Reply, options: { messageContentIntent: boolean }): MessagePart[] {
  const reply = revealReplyLinks(shown);
  if (reply.kind === 'answer') return renderAnswer(reply.answer);
  const writing = { ...discordWriting, readsEveryReply: options.messageContentIntent };
  const { markdown, notice, footer } = layOutReply(reply, writing);
  const said = [markdown, notice].filter((text) => text !== undefined).join('\n\n');
  return renderText(footer ? `${said}\n${footer}` : said);
}

/**
 * Discord's icons and Markdown for the core's reply layout; the catalogue's words are its Markdown
 * already, so names in them are literal and bold, commands in code.
 */
const discordWriting: Omit<ReplyWriting, 'readsEveryReply'> = {
  terms: discordMarkup.terms,
  name: (name) => discordMarkup.bold(discordMarkup.literal(name)),
  command: discordMarkup.code,
  icons: { question: '❓', stopped: '⏹️', warning: '⚠️', restarted: '🔄', 'shutting-down': '⏹️', info: '' },
  fileIcons: { waiting: '⏳', downloading: '⏳', working: '⏳', added: '✅', failed: '⚠️' },
  markup: discordMarkup,
  strong: discordMarkup.bold,
  small: (text) => `-# ${text}`,
};

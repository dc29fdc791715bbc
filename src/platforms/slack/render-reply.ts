/**
 * How Slack shows what the turn runner decides to show: statuses (the placeholder, ingest progress)
 * and replies (answers, clarifications, errors with their reference, notices), in mrkdwn with
 * Block Kit. The words come from the messages module; only the formatting is Slack's.
 */
import type { Reply, Status } from '../../core/chat-platform.ts';
import { fileLines } from '../../replies/compose-reply.ts';
import {
  layOutReply,
  type ReplyWriting,
  referenceLabel,
  writeFileLines,
} from '../../replies/lay-out-notice.ts';
import { shortenText } from '../../replies/shorten-text.ts';
import { closeOpenFence, splitWithin } from '../../replies/split-message.ts';
import { askAboutIngestedText, stillWritingText } from '../../turns/messages-en.ts';
import { revealReplyLinks } from '../../turns/reveal-reply-links.ts';
import { renderAnswer, renderMarkdown } from './render-answer.ts';
import { slackMarkup } from './slack-markup.ts';
import { maxSectionText, maxTextLength, type SlackMessage, truncateText } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

/** Slack takes at most 50 blocks in a message; notices use far fewer (and stay under 12,000 characters). */
const maxSections = 3;
/** A status line (it may quote a search query) within a context block's 3,000 characters. */
const maxStatusLine = 500;

export function renderStatus(status: Status): SlackMessage {
  if (status.kind === 'ingest') return section(writeFileLines(fileLines(status.files), slackWriting));
  const text = `:hourglass_flowing_sand: _${safeMrkdwn(shortenText(status.line, maxStatusLine))}_`;
  return { text, blocks: [context(text)] };
}

/** Marks the last message of an answer while it is still being written. */
export const writingMark = `_:writing_hand: ${stillWritingText}_`;

/** An answer as written so far: split like an answer (an open code block closed for now), the last marked. */
export function renderStreamingText(text: string): SlackMessage[] {
  const messages = renderMarkdown(closeOpenFence(text));
  const last = messages.at(-1);
  if (last) last.blocks = [...(last.blocks ?? []), context(writingMark)];
  return messages;
}

/** The reply composed by the core (`replies/compose-reply.ts`), laid out by it, in mrkdwn and Block Kit. */
export function renderReply(shown: Reply): SlackMessage[] {
  const reply = revealReplyLinks(shown);
  if (reply.kind === 'answer') return renderAnswer(reply.answer, reply.threadId);
  const { markdown, notice, footer } = layOutReply(reply, slackWriting);
  // A clarifying question: the model's Markdown, the hint under it.
  if (notice === undefined) return renderMarkdown(`${markdown}\n\n${footer}`);
  const noticeMessage = section(notice, footer);
  if (markdown === undefined) return [noticeMessage];
  // What was written so far, then the notice in the same (last) message.
  const messages = renderMarkdown(markdown);
  const last = messages.at(-1);
  if (!last) return [noticeMessage];
  last.blocks = [...(last.blocks ?? []), ...(noticeMessage.blocks ?? [])];
  last.text = `${last.text}\n\n${noticeMessage.text}`;
  return messages;
}

/**
 * Slack's icons and mrkdwn for the core's reply layout: the catalogue's words made safe, small print in
 * italics. Names and commands read plainly in Slack's notices: the whole sentence is escaped.
 */
const slackWriting: ReplyWriting = {
  readsEveryReply: true,
  terms: slackMarkup.terms,
  icons: {
    question: '🤔',
    stopped: ':octagonal_sign:',
    warning: ':warning:',
    restarted: ':arrows_counterclockwise:',
    'shutting-down': ':arrows_counterclockwise:',
    info: ':information_source:',
  },
  fileIcons: {
    waiting: ':hourglass_flowing_sand:',
    downloading: ':inbox_tray:',
    working: ':inbox_tray:',
    added: ':white_check_mark:',
    failed: ':x:',
  },
  markup: slackMarkup,
  words: safeMrkdwn,
  small: (text) => `_${text}_`,
};

/**
 * Whether a message's fallback text is an ingest's final result (its footer: what to ask next, or the
 * reference of a failure) rather than its progress, which never has a footer.
 */
export function showsIngestResult(text: string): boolean {
  return text.includes(askAboutIngestedText) || text.includes(`_${referenceLabel} `);
}

export function plainNotice(text: string, emoji = slackWriting.icons.info): SlackMessage {
  return section(`${emoji} ${safeMrkdwn(text)}`);
}

function context(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

/**
 * mrkdwn as sections, each within Slack's 3,000 characters, cut between lines where it can: any
 * number of files, long names or long error texts fit (at most {@link maxSections} sections, the
 * rest shortened, so the message stays well under Slack's limits on blocks and total text). A
 * `footer` (the reference, what to do next) is always kept whole, in its own section.
 */
export function section(text: string, footer?: string): SlackMessage {
  const kept = splitWithin(text, maxSectionText, maxSections);
  if (footer) kept.push(shortenText(footer, maxSectionText));
  return {
    // The footer survives the cut of the fallback text too (it tells a result from a progress message).
    text: footer ? `${truncateText(text, maxTextLength - footer.length - 1)}\n${footer}` : text,
    blocks: kept.map((part) => ({ type: 'section', text: { type: 'mrkdwn', text: part } })),
  };
}

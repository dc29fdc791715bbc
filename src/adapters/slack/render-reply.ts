/**
 * How Slack shows what the turn runner decides to show: statuses (the placeholder, ingest progress)
 * and replies (answers, clarifications, errors with their reference, notices), in mrkdwn with
 * Block Kit. The words come from the messages module; only the formatting is Slack's.
 */
import type { IngestFileState, Reply, Status } from '../../core/chat-platform.ts';
import {
  askAboutIngestedText,
  clarificationHint,
  describeIngestFile,
  helpIntro,
  helpTopics,
  ingestFooter,
  interruptedIngestText,
  overdueText,
  type PlatformTerms,
  restartedText,
  shuttingDownText,
} from '../../turns/messages-en.ts';
import { closeOpenFence } from '../shared/split-message.ts';
import { renderAnswer, renderMarkdown } from './render-answer.ts';
import type { SlackMessage } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

/** Slack's limit for the text of one `section` block. */
const maxSectionText = 3_000;

export function renderStatus(status: Status): SlackMessage {
  if (status.kind === 'ingest') return section(ingestLines(status.files));
  const text = `:hourglass_flowing_sand: _${safeMrkdwn(status.line)}_`;
  return { text, blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }] };
}

/** Marks the last message of an answer while it is still being written. */
export const writingMark = '_:writing_hand: writing…_';

/**
 * An answer as written so far: split like an answer (an open code block closed for now), the last
 * message marked as unfinished.
 */
export function renderStreamingText(text: string): SlackMessage[] {
  const messages = renderMarkdown(closeOpenFence(text));
  const last = messages.at(-1);
  if (last) {
    last.blocks = [
      ...(last.blocks ?? []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: writingMark }] },
    ];
  }
  return messages;
}

export function renderReply(reply: Reply): SlackMessage[] {
  switch (reply.kind) {
    case 'answer':
      return renderAnswer(reply.answer, reply.threadId);
    case 'clarification':
      return renderMarkdown(`🤔 ${reply.question}\n\n_${clarificationHint(true)}_`);
    case 'stopped':
      return [plainNotice(reply.message, ':octagonal_sign:')];
    case 'error':
      return [errorNotice(reply.error.message, reply.reference)];
    case 'overdue':
      return [errorNotice(overdueText(reply.seconds), reply.reference)];
    case 'restarted':
      return [plainNotice(restartedText, ':arrows_counterclockwise:')];
    case 'shutting-down':
      return [plainNotice(shuttingDownText, ':arrows_counterclockwise:')];
    case 'ingest-result': {
      const footer =
        ingestFooter(reply.files) === 'ask'
          ? `_${askAboutIngestedText} \`/ragent docs\` lists what I can search._`
          : `_Reference: ${safeMrkdwn(reply.reference)}_`;
      return [section(`${ingestLines(reply.files)}\n${footer}`)];
    }
    case 'interrupted-ingest':
      return [
        plainNotice(interruptedIngestText(reply.ingest, '/ragent ingest'), ':arrows_counterclockwise:'),
      ];
    case 'cut-off': {
      // What was written so far, then the notice in the same (last) message.
      const messages = renderMarkdown(closeOpenFence(reply.text));
      const notice = errorNotice(reply.notice, reply.reference);
      const last = messages.at(-1);
      if (!last) return [notice];
      last.blocks = [...(last.blocks ?? []), ...(notice.blocks ?? [])];
      last.text = `${last.text}\n\n${notice.text}`;
      return messages;
    }
    case 'notice':
      return [plainNotice(reply.text)];
  }
}

export function plainNotice(text: string, emoji = ':information_source:'): SlackMessage {
  return section(`${emoji} ${safeMrkdwn(text)}`);
}

function errorNotice(message: string, reference: string): SlackMessage {
  return section(`:warning: ${safeMrkdwn(message)}\n_Reference: ${safeMrkdwn(reference)}_`);
}

const fileIcons: Record<IngestFileState['state'], string> = {
  waiting: ':hourglass_flowing_sand:',
  downloading: ':inbox_tray:',
  working: ':inbox_tray:',
  added: ':white_check_mark:',
  failed: ':x:',
};

function ingestLines(files: readonly IngestFileState[]): string {
  return files
    .map(
      (file) =>
        `${fileIcons[file.state]} *${safeMrkdwn(file.name)}* — ${safeMrkdwn(describeIngestFile(file))}`,
    )
    .join('\n');
}

/** One mrkdwn section (cut to Slack's limit for a section's text). */
function section(text: string): SlackMessage {
  const within = text.length <= maxSectionText ? text : `${text.slice(0, maxSectionText - 1)}…`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: within } }] };
}

/** How Slack people call its places and commands. */
export const slackTerms: PlatformTerms = {
  place: 'this workspace',
  admin: 'a workspace admin',
  ingestCommand:
    '`/ragent ingest` (a form opens where you attach them; or share a PDF in a message that mentions me with the word _ingest_)',
  docsCommand: '`/ragent docs`',
  forgetCommand: '`/ragent forget <name>`',
};

export const helpText = [
  `*${safeMrkdwn(helpIntro(slackTerms))}*`,
  ...helpTopics(slackTerms, true).map(([topic, text]) => `• *${topic}:* ${text}`),
  '• *Help:* `/ragent help` — this message.',
].join('\n');

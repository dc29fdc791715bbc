/**
 * How Discord shows what the turn runner decides to show: statuses (`⏳ …`, ingest progress) and
 * replies (answers with a sources embed and 👍/👎, clarifications, errors, notices), in Discord
 * markdown, split under 2,000 characters. The words come from the messages module.
 */
import { escapeMarkdown } from 'discord.js';
import type { IngestFileState, Reply, Status } from '../../core/chat-platform.ts';
import {
  askAboutIngestedText,
  describeIngestFile,
  interruptedIngestText,
  overdueText,
  restartedText,
  shuttingDownText,
} from '../../turns/messages-en.ts';
import { revealDisguisedLinks } from '../../turns/reveal-disguised-links.ts';
import { revealReplyLinks } from '../../turns/reveal-reply-links.ts';
import { closeOpenFence, splitMessage } from '../../replies/split-message.ts';
import { clarificationText, errorText, literalText, stoppedText } from './discord-text.ts';
import { type MessagePart, messageLimit, renderAnswer, renderText } from './render-answer.ts';

export function renderStatus(status: Status): string {
  if (status.kind === 'ingest') return ingestLines(status.files);
  return `⏳ ${status.line}`;
}

/** Marks the last part of an answer while it is still being written. */
const writingMark = '\n-# ✍️ writing…';

/**
 * An answer as written so far: split under the limit (never inside a code block, an open one closed
 * for now), the last part marked as unfinished.
 */
export function renderStreamingText(text: string): string[] {
  const parts = splitMessage(closeOpenFence(revealDisguisedLinks(text)), messageLimit - writingMark.length);
  if (parts.length === 0) return [];
  parts[parts.length - 1] += writingMark;
  return parts;
}

export function renderReply(shown: Reply, options: { messageContentIntent: boolean }): MessagePart[] {
  const reply = revealReplyLinks(shown);
  switch (reply.kind) {
    case 'answer':
      return renderAnswer(reply.answer);
    case 'clarification':
      return renderText(clarificationText(reply.question, options.messageContentIntent));
    case 'stopped':
      return renderText(stoppedText(reply.message));
    case 'error':
      return renderText(`${errorText(reply.error)}\n-# Reference: ${escapeMarkdown(reply.reference)}`);
    case 'overdue':
      return renderText(`⚠️ ${overdueText(reply.seconds)}\n-# Reference: ${escapeMarkdown(reply.reference)}`);
    case 'restarted':
      return renderText(`🔄 ${restartedText}`);
    case 'shutting-down':
      return renderText(`⏹️ ${shuttingDownText}`);
    case 'ingest-result': {
      const lines = ingestLines(reply.files);
      const anyAdded = reply.files.some((file) => file.state === 'added');
      return renderText(anyAdded ? `${lines}\n-# ${askAboutIngestedText}` : lines);
    }
    case 'interrupted-ingest': {
      const { ingest } = reply;
      const bold = (name: string) => `**${literalText(name)}**`;
      const text = interruptedIngestText(
        { file: bold(ingest.file), added: ingest.added.map(bold), notAdded: ingest.notAdded.map(bold) },
        '`/ragent ingest`',
      );
      return renderText(`🔄 ${text}`);
    }
    case 'cut-off':
      return renderText(
        `${closeOpenFence(reply.text)}\n\n⚠️ **${reply.notice}**\n-# Reference: ${escapeMarkdown(reply.reference)}`,
      );
    case 'notice':
      return renderText(reply.text);
  }
}

const fileIcons: Record<IngestFileState['state'], string> = {
  waiting: '⏳',
  downloading: '⏳',
  working: '⏳',
  added: '✅',
  failed: '⚠️',
};

function ingestLines(files: readonly IngestFileState[]): string {
  return files
    .map(
      (file) =>
        `${fileIcons[file.state]} **${literalText(file.name)}** — ${literalText(describeIngestFile(file))}`,
    )
    .join('\n');
}

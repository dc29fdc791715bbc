/**
 * What a reply says, composed once for every platform in a neutral form: its icon, the model's or a
 * document's Markdown, its own words (from the catalogue, with names and commands as the platform
 * writes them in a sentence), ingest progress lines, a hint and the log reference in small print.
 * Each platform only maps this form to its format (mrkdwn and blocks, Discord Markdown). An answer is
 * left to the platform: its sources and buttons are its own wire.
 */
import type { IngestFileState, Reply } from '../core/chat-platform.ts';
import {
  askAboutIngestedText,
  clarificationHint,
  describeIngestFile,
  interruptedIngestText,
  overdueText,
  type PlatformTerms,
  restartedText,
  shuttingDownText,
} from '../turns/messages-en.ts';
import { shortenText } from './shorten-text.ts';
import { closeOpenFence } from './split-message.ts';

export type ReplyIcon = 'question' | 'stopped' | 'warning' | 'restarted' | 'shutting-down' | 'info';

export interface ReplyContent {
  icon: ReplyIcon;
  /** Model or document Markdown (a clarifying question, an answer cut off), code blocks closed. */
  markdown?: string;
  /** The reply's own words; `strong` under Markdown (the notice of an answer cut off). */
  words?: string;
  strong?: boolean;
  /** Ingest progress or result, one line per file. */
  files?: readonly FileLine[];
  /** Small print: what to do next. */
  hint?: string;
  /** Small print: the reference of the log entry. */
  reference?: string;
}

export interface FileLine {
  state: IngestFileState['state'];
  name: string;
  description: string;
}

/** A file's name and description, each shortened on its own: any number of files fit a status. */
export function fileLines(files: readonly IngestFileState[]): FileLine[] {
  return files.map((file) => ({
    state: file.state,
    name: shortenText(file.name, 200),
    description: shortenText(describeIngestFile(file), 600),
  }));
}

/** What composing a reply asks of a platform. */
export interface ComposingPlatform {
  /** Whether the bot reads every reply in a thread (else a clarification says how to answer it). */
  readsEveryReply: boolean;
  terms: PlatformTerms;
  /** How a file's name and a command read in a sentence on this platform (unset: as they are). */
  name?(text: string): string;
  command?(text: string): string;
}

export function composeReply(
  reply: Exclude<Reply, { kind: 'answer' }>,
  platform: ComposingPlatform,
): ReplyContent {
  const same = (text: string) => text;
  const { name = same, command = same } = platform;
  switch (reply.kind) {
    case 'clarification':
      return {
        icon: 'question',
        markdown: reply.question,
        hint: clarificationHint(platform.readsEveryReply),
      };
    case 'stopped':
      return { icon: 'stopped', words: reply.message };
    case 'error':
      return { icon: 'warning', words: reply.error.message, reference: reply.reference };
    case 'overdue':
      return { icon: 'warning', words: overdueText(reply.seconds), reference: reply.reference };
    case 'restarted':
      return { icon: 'restarted', words: restartedText };
    case 'shutting-down':
      return { icon: 'shutting-down', words: shuttingDownText };
    case 'ingest-result':
      return {
        icon: 'info',
        files: fileLines(reply.files),
        ...(reply.files.some((file) => file.state === 'added')
          ? { hint: `${askAboutIngestedText} ${platform.terms.docsCommand} lists what I can search.` }
          : { reference: reply.reference }),
      };
    case 'interrupted-ingest':
      return {
        icon: 'restarted',
        words: interruptedIngestText(
          {
            file: name(reply.ingest.file),
            added: reply.ingest.added.map(name),
            notAdded: reply.ingest.notAdded.map(name),
          },
          command('/ragent ingest'),
        ),
      };
    case 'cut-off':
      return {
        icon: 'warning',
        markdown: closeOpenFence(reply.text),
        words: reply.notice,
        strong: true,
        reference: reply.reference,
      };
    case 'notice':
      return { icon: 'info', words: reply.text };
  }
}

/**
 * What a reply says, composed once for every platform in a neutral form: its icon, the model's or a
 * document's Markdown, its own words (names and commands marked, so each platform shows a name
 * literally and a command as it writes one), ingest progress lines, a hint and the log reference in
 * small print. Each platform only maps this form to its format (mrkdwn and blocks, Discord Markdown).
 * An answer is left to the platform: its sources and buttons are its own wire.
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

/** Plain words; a name is shown literally, a command as the platform writes one, markup as it is. */
export type Words = ReadonlyArray<string | { name: string } | { command: string } | { markup: string }>;

export interface ReplyContent {
  icon: ReplyIcon;
  /** Model or document Markdown (a clarifying question, an answer cut off), code blocks closed. */
  markdown?: string;
  /** The reply's own words; `strong` under Markdown (the notice of an answer cut off). */
  words?: Words;
  strong?: boolean;
  /** Ingest progress or result, one line per file. */
  files?: readonly FileLine[];
  /** Small print: what to do next. */
  hint?: Words;
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

export function composeReply(
  reply: Exclude<Reply, { kind: 'answer' }>,
  platform: { readsEveryReply: boolean; terms: PlatformTerms },
): ReplyContent {
  switch (reply.kind) {
    case 'clarification':
      return {
        icon: 'question',
        markdown: reply.question,
        hint: [clarificationHint(platform.readsEveryReply)],
      };
    case 'stopped':
      return { icon: 'stopped', words: [reply.message] };
    case 'error':
      return { icon: 'warning', words: [reply.error.message], reference: reply.reference };
    case 'overdue':
      return { icon: 'warning', words: [overdueText(reply.seconds)], reference: reply.reference };
    case 'restarted':
      return { icon: 'restarted', words: [restartedText] };
    case 'shutting-down':
      return { icon: 'shutting-down', words: [shuttingDownText] };
    case 'ingest-result':
      return {
        icon: 'info',
        files: fileLines(reply.files),
        ...(reply.files.some((file) => file.state === 'added')
          ? {
              hint: [
                `${askAboutIngestedText} `,
                { markup: platform.terms.docsCommand },
                ' lists what I can search.',
              ],
            }
          : { reference: reply.reference }),
      };
    case 'interrupted-ingest':
      return { icon: 'restarted', words: interruptedWords(reply.ingest) };
    case 'cut-off':
      return {
        icon: 'warning',
        markdown: closeOpenFence(reply.text),
        words: [reply.notice],
        strong: true,
        reference: reply.reference,
      };
    case 'notice':
      return { icon: 'info', words: [reply.text] };
  }
}

const nameStart = '\u0001';
const nameEnd = '\u0002';
const command = '\u0003';

/** The catalogue's sentence with its names and command marked as such. */
function interruptedWords(ingest: Extract<Reply, { kind: 'interrupted-ingest' }>['ingest']): Words {
  const mark = (name: string) => `${nameStart}${name.replace(/[\u0001-\u0003]/g, '')}${nameEnd}`;
  const text = interruptedIngestText(
    { file: mark(ingest.file), added: ingest.added.map(mark), notAdded: ingest.notAdded.map(mark) },
    command,
  );
  return text
    .split(/(\u0001[^\u0002]*\u0002|\u0003)/)
    .filter((part) => part !== '')
    .map((part) =>
      part === command
        ? { command: '/ragent ingest' }
        : part.startsWith(nameStart)
          ? { name: part.slice(1, -1) }
          : part,
    );
}

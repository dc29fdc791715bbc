/**
 * How a notice (any reply but an answer) is laid out, once for every platform, from what the core
 * composed (`compose-reply.ts`): the model's Markdown first (a clarifying question with its icon, or
 * what was written before an answer was cut off), then the notice itself (its icon and words, or one
 * line per ingested file), then small print (what to do next, or the log reference). A platform gives
 * only its icons and how it writes literal text, bold and small print, and puts the pieces in its
 * messages.
 */
import type { IngestFileState, Reply } from '../core/chat-platform.ts';
import type { ChatMarkup } from '../turns/chat-markup.ts';
import {
  type ComposingPlatform,
  composeReply,
  type FileLine,
  type ReplyContent,
  type ReplyIcon,
} from './compose-reply.ts';

export interface NoticeWriting {
  icons: Record<ReplyIcon, string>;
  fileIcons: Record<IngestFileState['state'], string>;
  /** Its literal text (a file's name, a reference) and bold. */
  markup: Pick<ChatMarkup, 'literal' | 'bold'>;
  /** The catalogue's words as shown here (they may hold the platform's markup, such as its commands); unset: as they are. */
  words?(text: string): string;
  /** How the notice under cut-off Markdown stands out, where the platform makes it stand out. */
  strong?(text: string): string;
  small(text: string): string;
}

export interface NoticeLayout {
  /** Model Markdown, shown first. */
  markdown?: string;
  /** The notice's own lines: its icon and words, or one line per file. */
  notice?: string;
  /** Small print under it all. */
  footer?: string;
}

export const referenceLabel = 'Reference:';

/** How a platform writes a reply: what composing it asks (`compose-reply.ts`) and how it lays out a notice. */
export type ReplyWriting = NoticeWriting & ComposingPlatform;

/** A reply (any but an answer) composed and laid out once for every platform, in its writing. */
export function layOutReply(reply: Exclude<Reply, { kind: 'answer' }>, writing: ReplyWriting): NoticeLayout {
  return layOutNotice(composeReply(reply, writing), writing);
}

export function layOutNotice(content: ReplyContent, writing: NoticeWriting): NoticeLayout {
  const icon = writing.icons[content.icon];
  const withIcon = (text: string) => (icon ? `${icon} ${text}` : text);
  const asWords = writing.words ?? ((text: string) => text);
  const words = content.words && asWords(content.words);
  const headline = words && withIcon(content.strong && writing.strong ? writing.strong(words) : words);
  const notice = content.files ? writeFileLines(content.files, writing) : headline || undefined;
  const footer = content.reference
    ? `${referenceLabel} ${writing.markup.literal(content.reference)}`
    : content.hint && asWords(content.hint);
  return {
    // A question stands in the model's Markdown, with the notice's icon.
    ...(content.markdown !== undefined
      ? { markdown: words ? content.markdown : withIcon(content.markdown) }
      : {}),
    ...(notice !== undefined ? { notice } : {}),
    ...(footer ? { footer: writing.small(footer) } : {}),
  };
}

/** Ingest progress or its result: each file's state as an icon, its name in bold, what happened to it. */
export function writeFileLines(files: readonly FileLine[], writing: NoticeWriting): string {
  return files
    .map(
      (file) =>
        `${writing.fileIcons[file.state]} ${writing.markup.bold(writing.markup.literal(file.name))} — ${writing.markup.literal(file.description)}`,
    )
    .join('\n');
}

/**
 * What every platform's parsed message derives the same way, once: addressed to others (mentions
 * someone and not the bot), the attached files as names and as downloads read for the question's
 * thread alone, and "@bot ingest" as the core's chat ingest job of those same files into the set the
 * message asks for. The platform parses its wire event into the rest.
 */
import type { IncomingMessage, IngestFile } from '../core/chat-platform.ts';
import type { Scope } from '../core/types.ts';
import { type ChatIngestRequest, chatIngestJob } from './chat-ingest-job.ts';

type Derived = 'files' | 'addressedToOthers' | 'autoAnswerChannel' | 'ingest' | 'attachedFiles';

export interface ParsedMessage
  extends Omit<IncomingMessage, Derived | 'repliesToBot' | 'isEdit' | 'textHidden'> {
  /** Mentions other people, roles or groups. */
  mentionsOthers: boolean;
  repliesToBot?: boolean;
  isEdit?: boolean;
  textHidden?: boolean;
  /** See `IncomingMessage.autoAnswerChannel`; unset or undefined where nothing is answered unasked. */
  autoAnswerChannel?: Scope | undefined;
  /** The attached files, each downloaded only when it is read or ingested. */
  attachments: readonly IngestFile[];
  /** Where "@bot ingest" adds the files from (unset: a message here cannot ingest). */
  ingestFrom?: Omit<ChatIngestRequest, 'asked'>;
}

export function incomingMessage(parsed: ParsedMessage): IncomingMessage {
  const { mentionsOthers, attachments, ingestFrom, autoAnswerChannel, ...rest } = parsed;
  return {
    repliesToBot: false,
    isEdit: false,
    textHidden: false,
    ...rest,
    files: attachments.map((file) => file.name),
    addressedToOthers: !parsed.mentionsBot && mentionsOthers,
    ...(autoAnswerChannel ? { autoAnswerChannel } : {}),
    attachedFiles: () => attachments,
    ...(ingestFrom
      ? { ingest: (text: string) => chatIngestJob({ ...ingestFrom, asked: { text }, files: attachments }) }
      : {}),
  };
}

/**
 * What every platform's parsed message derives the same way, once: addressed to others (mentions
 * someone and not the bot), the attached files as names and as downloads read for the question's
 * thread alone, and "@bot ingest" as the core's chat ingest job of those same files into the set the
 * message asks for; and from the thread it is answered in (`answer-thread.ts`), where it is reached,
 * how its answer opens and which of the thread's messages came before it. The platform parses its
 * wire event into the rest.
 */
import type { IncomingMessage, IngestFile } from '../core/chat-platform.ts';
import type { Scope } from '../core/types.ts';
import { type AnswerThread, openAnswer } from './answer-thread.ts';
import { type ChatIngestRequest, chatIngestJob } from './chat-ingest-job.ts';

type Derived = 'files' | 'addressedToOthers' | 'autoAnswerChannel' | 'ingest' | 'attachedFiles';
/** What the thread the message is answered in gives (`answer-thread.ts`). */
type FromThread = 'thread' | 'location' | 'open' | 'readThread';

export interface ParsedMessage
  extends Omit<IncomingMessage, Derived | FromThread | 'repliesToBot' | 'isEdit' | 'textHidden'> {
  /** Where the message is answered: the thread it is in, or the one it starts. */
  answeredIn: AnswerThread;
  /** Orders the message among the thread's others (the platform's timestamp or growing id). */
  position: string;
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
  const { mentionsOthers, attachments, ingestFrom, autoAnswerChannel, answeredIn, position, ...rest } =
    parsed;
  return {
    repliesToBot: false,
    isEdit: false,
    textHidden: false,
    ...rest,
    thread: { threadId: answeredIn.threadId, position },
    location: answeredIn.location,
    open: () => openAnswer(answeredIn, parsed.text, parsed.author),
    // Read only when the message is in a thread already (`receive-message.ts`): its messages before this one.
    readThread: (limit) => answeredIn.read({ before: position }, limit),
    files: attachments.map((file) => file.name),
    addressedToOthers: !parsed.mentionsBot && mentionsOthers,
    ...(autoAnswerChannel ? { autoAnswerChannel } : {}),
    attachedFiles: () => attachments,
    ...(ingestFrom
      ? { ingest: (text: string) => chatIngestJob({ ...ingestFrom, asked: { text }, files: attachments }) }
      : {}),
  };
}

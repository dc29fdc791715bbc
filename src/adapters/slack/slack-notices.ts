/**
 * The short texts the Slack adapter shows people: errors (what happened, what to do), help,
 * acknowledgements. Errors carry a reference that points to the log entry.
 */
import type { RagentError } from '../../errors.ts';
import type { InterruptedIngest } from './ingest-record.ts';
import type { SlackMessage } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

export function errorNotice(error: RagentError, reference: string): SlackMessage {
  const text = `:warning: ${safeMrkdwn(error.message)}\n_Reference: ${safeMrkdwn(reference)}_`;
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

export function plainNotice(text: string, emoji = ':information_source:'): SlackMessage {
  const body = `${emoji} ${safeMrkdwn(text)}`;
  return { text: body, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body } }] };
}

/** Posted in a thread whose answer a crash cut short, when the bot starts again. */
export const restartedNotice = plainNotice(
  'ragent restarted before it could finish answering this; please ask again.',
  ':arrows_counterclockwise:',
);

/**
 * Replaces the progress message of an ingest a crash cut short, when the bot starts again. Each
 * file's ingest is atomic, so the interrupted file left nothing behind.
 */
export function interruptedIngestNotice({ file, added, notAdded }: InterruptedIngest): SlackMessage {
  const text =
    added.length === 0 && notAdded.length === 1
      ? `ragent restarted while ingesting ${file}; nothing was added — run /ragent ingest again.`
      : `ragent restarted while ingesting ${file}; not added: ${notAdded.join(', ')}` +
        (added.length > 0 ? ` (added before the restart: ${added.join(', ')})` : '') +
        ` — run /ragent ingest again for ${notAdded.length === 1 ? 'it' : 'those'}.`;
  return plainNotice(text, ':arrows_counterclockwise:');
}

export const helpText = [
  '*ragent* answers questions from your team’s PDFs.',
  '• Mention me with a question: `@ragent how do I …?` — I answer in the thread. Reply in that thread to follow up; no mention needed.',
  '• `/ragent ingest` — add PDFs to this workspace (a form opens where you attach them). You can also share a PDF in a message that mentions me with the word _ingest_.',
  '• `/ragent docs` — list the documents I can search here.',
  '• `/ragent forget <name>` — remove a document (its uploader or a workspace admin).',
  '• `/ragent help` — this message.',
].join('\n');

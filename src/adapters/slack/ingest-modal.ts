/**
 * The `/ragent ingest` form: slash commands cannot carry files, so a modal with a `file_input`
 * (PDF only) collects them. Where the command came from travels in `private_metadata`, so the
 * progress and the result are posted back there.
 */
import type { App } from '@slack/bolt';
import { isPdfFile, type SlackFileReference } from './download-slack-file.ts';
import { slackIngestJob } from './ingest-job.ts';
import type { SlackContext } from './slack-context.ts';

export const ingestModalCallbackId = 'ragent_ingest';
const blockId = 'ragent_ingest_files';
const actionId = 'files';
const maxFiles = 10;

interface IngestOrigin {
  channel: string;
  user: string;
  team: string;
}

export function ingestModal(origin: IngestOrigin): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: ingestModalCallbackId,
    private_metadata: JSON.stringify(origin),
    title: { type: 'plain_text', text: 'Add documents' },
    submit: { type: 'plain_text', text: 'Ingest' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: blockId,
        label: { type: 'plain_text', text: 'PDF files' },
        hint: {
          type: 'plain_text',
          text: 'They become searchable for everyone in this workspace. Progress is posted in the channel.',
        },
        element: { type: 'file_input', action_id: actionId, filetypes: ['pdf'], max_files: maxFiles },
      },
    ],
  };
}

export function registerIngestModal(app: App, context: SlackContext): void {
  app.view(ingestModalCallbackId, async ({ ack, view, body }) => {
    const files = ((view.state.values[blockId]?.[actionId] as { files?: SlackFileReference[] } | undefined)
      ?.files ?? []) as SlackFileReference[];
    if (files.length === 0) {
      await ack({ response_action: 'errors', errors: { [blockId]: 'Attach at least one PDF.' } });
      return;
    }
    const notPdf = files.filter((file) => !isPdfFile(file));
    if (notPdf.length > 0) {
      await ack({
        response_action: 'errors',
        errors: {
          [blockId]: `Only PDF files can be ingested: ${notPdf.map((file) => file.name).join(', ')}`,
        },
      });
      return;
    }
    await ack();
    const origin = parseOrigin(view.private_metadata, body.user.id, body.team?.id ?? body.user.team_id ?? '');
    const reference = `view ${view.id}`;
    context.turns.ingest(
      slackIngestJob(context, {
        teamId: origin.team,
        user: body.user.id,
        files,
        destination: { channel: origin.channel },
        reference,
      }),
    );
  });
}

function parseOrigin(metadata: string, user: string, team: string): IngestOrigin {
  try {
    const parsed = JSON.parse(metadata) as Partial<IngestOrigin>;
    // The team always comes from the signed payload, never from what the form carried.
    return { channel: parsed.channel || user, user, team };
  } catch {
    return { channel: user, user, team };
  }
}

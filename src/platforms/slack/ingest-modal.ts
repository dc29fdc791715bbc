/**
 * The `/ragent ingest` form: slash commands cannot carry files, so a modal with a `file_input`
 * (every type the ingest reads) collects them. Where the command came from travels in `private_metadata`, so the
 * progress and the result are posted back there.
 */
import type { App } from '@slack/bolt';
import { supportedFileExtensions } from '../../core/file-kind.ts';
import { type IngestTarget, parseIngestTarget } from '../../turns/ingest-target.ts';
import type { SlackFileReference } from './download-slack-file.ts';
import { slackIngestJob } from './ingest-job.ts';
import { isDirectMessageChannel, type SlackContext } from './slack-context.ts';

export const ingestModalCallbackId = 'ragent_ingest';
const blockId = 'ragent_ingest_files';
const actionId = 'files';
const targetBlockId = 'ragent_ingest_target';
const targetActionId = 'target';
const maxFiles = 10;

interface IngestOrigin {
  channel: string;
  user: string;
  team: string;
}

const targetLabels: Record<IngestTarget, string> = {
  channel: 'This channel only',
  workspace: 'The whole workspace',
};

/** In a channel the form asks which set the files go to; a DM has no channel set. */
export function ingestModal(origin: IngestOrigin, defaultTarget: IngestTarget): Record<string, unknown> {
  const option = (target: IngestTarget) => ({
    text: { type: 'plain_text', text: targetLabels[target] },
    value: target,
  });
  const inChannel = !isDirectMessageChannel(origin.channel);
  const targetBlock = {
    type: 'input',
    block_id: targetBlockId,
    label: {
      type: 'plain_text',
      text: `Who can search them? (default: ${targetLabels[defaultTarget].toLowerCase()})`,
    },
    element: {
      type: 'radio_buttons',
      action_id: targetActionId,
      options: [option('channel'), option('workspace')],
      initial_option: option(defaultTarget),
    },
  };
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
        label: { type: 'plain_text', text: 'Files' },
        hint: {
          type: 'plain_text',
          text: inChannel
            ? 'Questions in this channel search its own documents, the workspace’s and the shared ones. Progress is posted in the channel.'
            : 'They become searchable for everyone in this workspace. Progress is posted here.',
        },
        element: {
          type: 'file_input',
          action_id: actionId,
          filetypes: [...supportedFileExtensions],
          max_files: maxFiles,
        },
      },
      ...(inChannel ? [targetBlock] : []),
    ],
  };
}

export function registerIngestModal(app: App, context: SlackContext): void {
  app.view(ingestModalCallbackId, async ({ ack, view, body }) => {
    const files = ((view.state.values[blockId]?.[actionId] as { files?: SlackFileReference[] } | undefined)
      ?.files ?? []) as SlackFileReference[];
    if (files.length === 0) {
      await ack({ response_action: 'errors', errors: { [blockId]: 'Attach at least one file.' } });
      return;
    }
    // The form offers only the extensions the ingest reads; what each file really is, the ingest tells
    // from its bytes (a wrong one is reported in the result, and the others are still added).
    await ack();
    const origin = parseOrigin(view.private_metadata, body.user.id, body.team?.id ?? body.user.team_id ?? '');
    const reference = `view ${view.id}`;
    const picked = view.state.values[targetBlockId]?.[targetActionId] as
      | { selected_option?: { value?: string } | null }
      | undefined;
    const target = parseIngestTarget(
      picked?.selected_option?.value,
      context.services.config.ingest.defaultSet,
    );
    context.turns.ingest(
      slackIngestJob(context, {
        teamId: origin.team,
        channel: origin.channel,
        target,
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

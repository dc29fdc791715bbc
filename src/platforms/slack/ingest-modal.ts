/**
 * The `/ragent ingest` form: slash commands cannot carry files, so a modal with a `file_input` (every
 * type the ingest reads) collects them. Where the command came from travels in `private_metadata`,
 * so the progress and the result are posted back there; the team always comes from the signed payload.
 */
import type { App } from '@slack/bolt';
import { supportedFileExtensions } from '../../core/file-kind.ts';
import { chatIngestJob } from '../../turns/chat-ingest-job.ts';
import type { IngestTarget } from '../../turns/ingest-target.ts';
import { ingestFormText } from '../../turns/messages-en.ts';
import type { SlackFileReference } from './download-slack-file.ts';
import { slackFile, slackIngestFrom } from './ingest-job.ts';
import { isDirectMessageChannel, type SlackContext } from './slack-context.ts';

export const ingestModalCallbackId = 'ragent_ingest';
const filesBlock = 'ragent_ingest_files';
const targetBlock = 'ragent_ingest_target';
const maxFiles = 10;
const labels = ingestFormText.targets('workspace');

interface IngestOrigin {
  channel: string;
  user: string;
  team: string;
}

const plain = (text: string) => ({ type: 'plain_text', text });

/** In a channel the form asks which set the files go to; a DM has no channel set. */
export function ingestModal(origin: IngestOrigin, defaultTarget: IngestTarget): Record<string, unknown> {
  const option = (target: IngestTarget) => ({ text: plain(labels[target]), value: target });
  const inChannel = !isDirectMessageChannel(origin.channel);
  const files = {
    type: 'input',
    block_id: filesBlock,
    label: plain(ingestFormText.files),
    hint: plain(
      inChannel ? ingestFormText.inChannel('workspace') : ingestFormText.inDirectMessage('workspace'),
    ),
    element: {
      type: 'file_input',
      action_id: 'files',
      filetypes: [...supportedFileExtensions],
      max_files: maxFiles,
    },
  };
  const target = {
    type: 'input',
    block_id: targetBlock,
    label: plain(ingestFormText.target(labels[defaultTarget])),
    element: {
      type: 'radio_buttons',
      action_id: 'target',
      options: [option('channel'), option('workspace')],
      initial_option: option(defaultTarget),
    },
  };
  return {
    type: 'modal',
    callback_id: ingestModalCallbackId,
    private_metadata: JSON.stringify(origin),
    title: plain(ingestFormText.title),
    submit: plain(ingestFormText.submit),
    close: plain(ingestFormText.cancel),
    blocks: inChannel ? [files, target] : [files],
  };
}

export function registerIngestModal(app: App, context: SlackContext): void {
  app.view(ingestModalCallbackId, async ({ ack, view, body }) => {
    const values = view.state.values;
    const files = (values[filesBlock]?.files as { files?: SlackFileReference[] } | undefined)?.files ?? [];
    if (files.length === 0) {
      await ack({ response_action: 'errors', errors: { [filesBlock]: ingestFormText.noFiles } });
      return;
    }
    // The form offers only the extensions the ingest reads; what each file really is, the ingest tells
    // from its bytes (a wrong one is reported in the result, and the others are still added).
    await ack();
    const team = body.team?.id ?? body.user.team_id ?? '';
    const channel = metadataChannel(view.private_metadata) || body.user.id;
    const reference = `view ${view.id}`;
    const picked = values[targetBlock]?.target as { selected_option?: { value?: string } | null } | undefined;
    context.turns.ingest(
      chatIngestJob({
        ...slackIngestFrom(context, {
          teamId: team,
          channel,
          user: body.user.id,
          destination: { channel },
          reference,
        }),
        asked: { picked: picked?.selected_option?.value },
        files: files.map((file) => slackFile(context, file)),
      }),
    );
  });
}

function metadataChannel(metadata: string): string | undefined {
  try {
    return (JSON.parse(metadata) as Partial<IngestOrigin>).channel;
  } catch {
    return undefined;
  }
}

/**
 * Ingests PDFs a user gave the bot (through the `/ragent ingest` form, or shared in a message that
 * mentions the bot with "ingest") into their workspace's scope, showing progress in one message
 * that ends as the result: pages, chunks and seconds per file, or what went wrong and what to do.
 * The message goes where the request came from; if the bot cannot post there, to the user directly.
 * Once that message exists the ingest is recorded in `bot.sqlite` until its result is shown, so that
 * after a crash the message says what was not added (see ingest-record).
 */
import type { IngestProgress, IngestReport } from '../../core/types.ts';
import { RagentError, toRagentError } from '../../errors.ts';
import { downloadSlackFile, isPdfFile, type SlackFileReference } from './download-slack-file.ts';
import { recordSlackIngest } from './ingest-record.ts';
import { createLiveMessage, type LiveMessage } from './live-message.ts';
import { type SlackContext, workspaceScope } from './slack-context.ts';
import { type SlackDestination, type SlackMessage, slackErrorCode } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

export interface IngestJob {
  teamId: string;
  user: string;
  files: SlackFileReference[];
  destination: SlackDestination;
  reference: string;
}

const cannotPost = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

export async function ingestSlackFiles(context: SlackContext, job: IngestJob): Promise<void> {
  const { services, logger } = context;
  const log = logger.child({ reference: job.reference, team: job.teamId });
  const lines = job.files.map((file) => `:hourglass_flowing_sand: *${safeMrkdwn(file.name)}* — waiting…`);
  const render = (footer?: string): SlackMessage => {
    const text = [...lines, ...(footer ? [footer] : [])].join('\n');
    return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
  };
  const progressMessage = await startLiveMessage(context, job, render());
  const live = progressMessage?.live;
  const record =
    progressMessage &&
    recordSlackIngest(services.botState, {
      key: `slack:ingest:${job.teamId}:${job.reference}`,
      destination: progressMessage.live.destination,
      messageTs: progressMessage.ts,
      files: job.files.map((file) => file.name),
    });
  const added = job.files.map(() => false);
  try {
    for (const [index, file] of job.files.entries()) {
      const name = safeMrkdwn(file.name);
      record?.startFile(index, added);
      try {
        const started = Date.now();
        if (!isPdfFile(file)) {
          throw new RagentError(
            'FILE_UNSUPPORTED',
            `${file.name} is not a PDF. I can only read PDF files; export it as PDF and try again.`,
          );
        }
        lines[index] = `:inbox_tray: *${name}* — downloading…`;
        live?.update(render());
        const fileInfo =
          file.url_private_download || file.url_private ? file : await fileDetails(context, file);
        const bytes = await downloadSlackFile(fileInfo, {
          botToken: services.config.slack.botToken ?? '',
          apiUrl: services.config.slack.apiUrl,
          maxBytes: services.config.ingest.maxFileBytes,
        });
        const report = await services.ingestion.ingest(
          { name: file.name, bytes, scope: workspaceScope(job.teamId), uploader: job.user },
          (progress) => {
            lines[index] = `:inbox_tray: *${name}* — ${describeIngestProgress(progress)}`;
            live?.update(render());
          },
        );
        added[index] = true;
        lines[index] =
          `:white_check_mark: *${name}* — ${describeReport(report, (Date.now() - started) / 1000)}`;
        log.info({ file: file.name, status: report.status, documentId: report.document.id }, 'ingested');
      } catch (error) {
        const ragentError = toRagentError(error, `Could not ingest ${file.name}.`);
        log.error({ err: error, code: ragentError.code, file: file.name }, 'ingest failed');
        lines[index] = `:x: *${name}* — ${safeMrkdwn(ragentError.message)}`;
      }
      live?.update(render());
    }
    const anyIngested = lines.some((line) => line.startsWith(':white_check_mark:'));
    const footer = anyIngested
      ? '_Ask about it by mentioning me in a channel. `/ragent docs` lists what I can search._'
      : `_Reference: ${safeMrkdwn(job.reference)}_`;
    await live?.finish([render(footer)]);
  } finally {
    record?.end();
  }
}

async function startLiveMessage(
  context: SlackContext,
  job: IngestJob,
  first: SlackMessage,
): Promise<{ live: LiveMessage; ts: string } | undefined> {
  const destinations: SlackDestination[] = [job.destination];
  if (job.destination.channel !== job.user) destinations.push({ channel: job.user });
  for (const destination of destinations) {
    const live = createLiveMessage({
      client: context.client,
      destination,
      throttleMs: context.statusThrottleMs,
      logger: context.logger,
      editBudget: context.editBudget,
    });
    try {
      return { live, ts: await live.start(first) };
    } catch (error) {
      const code = slackErrorCode(error);
      context.logger.warn({ code, channel: destination.channel }, 'cannot post the ingest progress here');
      if (!code || !cannotPost.has(code)) break;
    }
  }
  return undefined;
}

async function fileDetails(context: SlackContext, file: SlackFileReference): Promise<SlackFileReference> {
  const result = await context.client.files.info({ file: file.id });
  return { ...file, ...(result.file as SlackFileReference) };
}

export function describeIngestProgress(progress: IngestProgress): string {
  const stage = {
    reading: 'reading',
    extracting: 'extracting text',
    chunking: 'chunking',
    embedding: 'embedding',
    indexing: 'indexing',
    done: 'finishing',
  }[progress.stage];
  return progress.total > 0 ? `${stage} ${progress.done}/${progress.total} ${progress.unit}…` : `${stage}…`;
}

export function describeReport(report: IngestReport, seconds: number): string {
  const { document } = report;
  const counts = `${count(document.pages, 'page')}, ${count(document.children, 'chunk')}`;
  const figures = `${counts}, ${seconds.toFixed(1)} s`;
  switch (report.status) {
    case 'ingested':
      return figures;
    case 'replaced':
      return `${figures} (replaced the previous version)`;
    case 'unchanged':
      return `already ingested, unchanged (${counts})`;
  }
}

function count(value: number, word: string): string {
  return `${value} ${word}${value === 1 ? '' : 's'}`;
}

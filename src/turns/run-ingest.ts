/**
 * The ingest path: show the progress of each file (throttled, under the platform's edit budget),
 * record the turn and move its record from file to file (so a crash tells the thread what was not
 * ingested), ingest the files one by one, then deliver the result.
 */
import type { IngestFileState, IngestJob, ReplySurface } from '../core/chat-platform.ts';
import { errorMessageOpenings } from '../error-messages-en.ts';
import { toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { deliver } from './deliver-reply.ts';
import { ingestLocation } from './ingest-location.ts';
import { type AttachedPlatform, type RunnerContext, type RunningJob, tryStore } from './runner-context.ts';
import { throttleStatus } from './throttled-status.ts';

export async function runIngest(
  context: RunnerContext,
  attached: AttachedPlatform,
  job: IngestJob,
  files: IngestFileState[],
  running: RunningJob,
  log: Logger,
) {
  const { store, ingestion } = context;
  const { platform } = attached;
  let surface: ReplySurface;
  try {
    surface = await job.open({ kind: 'ingest', files: [...files] });
  } catch (error) {
    log.error({ err: error }, 'could not show the ingest progress anywhere');
    return;
  }
  running.surface = surface;
  const location = (index: number) => ({ ...surface.location, ...ingestLocation(files, index) });
  running.recorded = await tryStore(log, 'record the ingest', () =>
    store.beginTurn({
      key: job.key,
      platform: platform.name,
      kind: 'ingest',
      location: location(0),
      ...(job.startedAt ? { startedAt: job.startedAt } : {}),
    }),
  );
  const status = throttleStatus(surface, {
    intervalMs: platform.statusIntervalMs,
    budget: running.budgets.budget,
    onError: (error) => log.warn({ err: error }, 'could not update the ingest progress'),
  });
  const show = () => status.show({ kind: 'ingest', files: [...files] });
  try {
    for (const [index, file] of job.files.entries()) {
      if (index > 0 && running.recorded) {
        await tryStore(log, 'move the ingest', () => store.moveTurn(job.key, location(index)));
      }
      const started = Date.now();
      try {
        files[index] = { name: file.name, state: 'downloading' };
        show();
        const bytes = await file.download();
        const link = file.link?.();
        // A web page is named by its address after redirects (as `ragent ingest <url>` names it).
        const url = file.url?.();
        const report = await ingestion.ingest(
          {
            name: url ?? file.name,
            bytes,
            scope: job.scope,
            uploader: job.uploader,
            ...(link ? { link } : {}),
            ...(url ? { url } : {}),
          },
          (progress) => {
            files[index] = { name: file.name, state: 'working', progress };
            show();
          },
        );
        files[index] = { name: file.name, state: 'added', report, seconds: (Date.now() - started) / 1000 };
        log.info({ file: file.name, status: report.status, documentId: report.document.id }, 'ingested');
      } catch (error) {
        const ragentError = toRagentError(error, errorMessageOpenings.ingestingFailed(file));
        log.error({ err: error, code: ragentError.code, file: file.name }, 'ingest failed');
        files[index] = { name: file.name, state: 'failed', error: ragentError };
      }
      show();
    }
    await status.settle();
    await deliver(
      surface,
      running,
      { kind: 'ingest-result', files: [...files], reference: job.reference },
      log,
    );
  } finally {
    if (!running.abandoned) await context.endTurn(job.key);
  }
}

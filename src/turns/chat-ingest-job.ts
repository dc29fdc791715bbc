/**
 * One ingest job from a chat, for every platform and every way of asking (files shared with
 * "@ragent ingest", the upload form or command option, `/ragent ingest <url>`): which set the files
 * go to — the one the person picked, or said in the message, else RAGENT_INGEST_DEFAULT_SET; the
 * channel's only where there is a channel set (never in a DM) — and the web pages as files fetched
 * under the chat's address guard. The platform lists its files (each fetched by its bounded download)
 * and gives the place and where the progress shows.
 */
import type { IngestFile, IngestJob, ReplySurface, Status } from '../core/chat-platform.ts';
import type { Scope, WebIngestion } from '../core/types.ts';
import { type IngestTarget, ingestTargetFromText, parseIngestTarget } from './ingest-target.ts';
import { webPageFile } from './web-page-file.ts';

export interface ChatIngestRequest {
  key: string;
  reference: string;
  uploader: string;
  /** Epoch ms of the request (default: now). */
  startedAt?: number;
  /** The sets of where the request came from: the channel's (none in a DM) and the workspace's/server's. */
  sets: { channel?: Scope | undefined; place: Scope };
  /** How the person said which set: a form's or option's value, or the message's words. */
  asked: { picked: string | null | undefined } | { text: string };
  /** RAGENT_INGEST_DEFAULT_SET. */
  defaultSet: IngestTarget;
  files?: readonly IngestFile[];
  /** `/ragent ingest <url>`: the addresses, each ingested like an upload. */
  pages?: { web: WebIngestion; urls: readonly string[] };
  open(first: Status): Promise<ReplySurface>;
}

export function chatIngestJob(request: ChatIngestRequest): IngestJob {
  const { asked, defaultSet, sets, pages } = request;
  const target =
    'text' in asked
      ? ingestTargetFromText(asked.text, defaultSet)
      : parseIngestTarget(asked.picked, defaultSet);
  return {
    key: request.key,
    reference: request.reference,
    scope: target === 'channel' && sets.channel ? sets.channel : sets.place,
    uploader: request.uploader,
    ...(request.startedAt !== undefined ? { startedAt: request.startedAt } : {}),
    files: [...(request.files ?? []), ...(pages?.urls ?? []).map((url) => webPageFile(pages!.web, url))],
    open: request.open,
  };
}

/** `open` on a surface the platform shows no status on by itself: the job's first status is its first. */
export function showingFirstStatus(surface: () => ReplySurface | Promise<ReplySurface>) {
  return async (first: Status): Promise<ReplySurface> => {
    const opened = await surface();
    await opened.showStatus(first);
    return opened;
  };
}

/**
 * Files attached to a question (without "ingest"): read for that thread alone. Each file is ingested
 * into the thread's own scope (`threadFilesScope`, derived from the thread id the platform fixed from
 * where the message came), which the runner adds to every turn of that thread — this one and its
 * follow-ups — and to no other thread or channel. Each file's ingest is atomic (written whole with one
 * index write, or not at all), so a crash part-way leaves nothing half-visible; the files are removed
 * after RAGENT_THREAD_FILES_DAYS (`operators/thread-files-retention.ts`). A file that cannot be read
 * is said before the answer, which is still given from the channel's documents.
 */
import type { IngestFile, Place } from '../core/chat-platform.ts';
import { threadFilesScope } from '../core/ids.ts';
import type { Ingestion, TurnResult } from '../core/types.ts';
import { errorMessageOpenings } from '../error-messages-en.ts';
import { type RagentError, toRagentError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { unreadFileText } from './messages-en.ts';

/** The place with its thread's own files searched too (last: a report counts a turn under its first scope). */
export function withThreadFiles(place: Place): Place {
  const scope = threadFilesScope(place.threadId);
  return place.scopes.includes(scope) ? place : { ...place, scopes: [...place.scopes, scope] };
}

/** A file that could not be read, and why. */
export interface UnreadFile {
  name: string;
  error: RagentError;
}

/**
 * Ingests the files into the thread's own scope, one after the other, telling `onReading` before
 * each; returns those that failed (the others are searchable when it resolves).
 */
export async function readThreadFiles(
  ingestion: Ingestion,
  files: readonly IngestFile[],
  place: Place,
  onReading: (name: string) => void,
  log: Logger,
): Promise<UnreadFile[]> {
  const scope = threadFilesScope(place.threadId);
  const unread: UnreadFile[] = [];
  for (const file of files) {
    onReading(file.name);
    try {
      const bytes = await file.download();
      const link = file.link?.();
      const report = await ingestion.ingest({
        name: file.name,
        bytes,
        scope,
        uploader: place.user,
        ...(link ? { link } : {}),
      });
      log.info(
        { file: file.name, status: report.status, documentId: report.document.id, threadId: place.threadId },
        'read a file attached to the question',
      );
    } catch (error) {
      const ragentError = toRagentError(error, errorMessageOpenings.readingFailed(file));
      log.warn({ err: error, code: ragentError.code, file: file.name }, 'could not read an attached file');
      unread.push({ name: file.name, error: ragentError });
    }
  }
  return unread;
}

/** The turn's result with what could not be read said first (an answer's text, or the question asked back). */
export function withUnreadFiles(result: TurnResult, unread: readonly UnreadFile[]): TurnResult {
  if (unread.length === 0) return result;
  const notes = unread.map((file) => unreadFileText(file.name, file.error.message)).join('\n\n');
  switch (result.kind) {
    case 'answer':
      return {
        kind: 'answer',
        answer: {
          ...result.answer,
          body: `${notes}\n\n${result.answer.body}`,
          markdown: `${notes}\n\n${result.answer.markdown}`,
        },
      };
    case 'clarification':
      return { kind: 'clarification', question: `${notes}\n\n${result.question}` };
    case 'stopped':
      return result;
  }
}

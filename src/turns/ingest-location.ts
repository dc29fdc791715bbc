/**
 * What an ingest job records about itself, next to the platform's location: the file it is on and
 * which files it added before — so that after a crash (or a stop that gives up on it) the thread can
 * be told honestly what was not added. Each file's ingest is atomic: the interrupted one left nothing.
 */
import type { IngestFileState, InterruptedIngest } from '../core/chat-platform.ts';

/** The recorded part of an ingest's location: the file it is on, and what was added before. */
export function ingestLocation(files: readonly IngestFileState[], index: number): Record<string, string> {
  return {
    file: files[index]?.name ?? '',
    added: JSON.stringify(files.filter((file) => file.state === 'added').map((file) => file.name)),
    notAdded: JSON.stringify(files.filter((file) => file.state !== 'added').map((file) => file.name)),
  };
}

/** What an ingest a stop gives up on has not done. */
export function interruptedNow(files: readonly IngestFileState[]): InterruptedIngest {
  const current = files.find((file) => file.state === 'downloading' || file.state === 'working');
  return interruptedIngest(ingestLocation(files, current ? files.indexOf(current) : 0));
}

/** What a recorded ingest's location says (see `ingestLocation`). */
export function interruptedIngest(location: Record<string, string>): InterruptedIngest {
  const file = location.file || 'your files';
  const notAdded = names(location.notAdded);
  return { file, added: names(location.added), notAdded: notAdded.length > 0 ? notAdded : [file] };
}

function names(json: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}

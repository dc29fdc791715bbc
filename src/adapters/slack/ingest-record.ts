/**
 * An ingest's entry in `bot.sqlite` (see turns-in-flight): where its progress message is, which file
 * it is on and which files were added before — so that after a crash that message can say honestly
 * what was not added. Each file's ingest is atomic: a file cut short left nothing behind.
 */
import type { BotStateStore } from '../shared/bot-state-store.ts';
import { recordTurn } from '../shared/turns-in-flight.ts';
import type { SlackDestination } from './slack-message.ts';

export interface InterruptedIngest {
  /** The file being ingested when the crash came. */
  file: string;
  /** Files of the same request that were added before it. */
  added: string[];
  /** Files of the request that were not added: the interrupted one, those after it, those that failed. */
  notAdded: string[];
}

export interface IngestRecord {
  /** The ingest moves on to file `index`; `added[i]` tells whether file `i` was added. */
  startFile(index: number, added: readonly boolean[]): void;
  /** The result (or error) is shown. Idempotent. */
  end(): void;
}

export function recordSlackIngest(
  store: BotStateStore,
  ingest: { key: string; destination: SlackDestination; messageTs: string; files: readonly string[] },
): IngestRecord {
  const { channel, threadTs } = ingest.destination;
  const location = (index: number, added: readonly boolean[]) => ({
    channel,
    ...(threadTs ? { threadTs } : {}),
    messageTs: ingest.messageTs,
    file: ingest.files[index] ?? '',
    added: JSON.stringify(ingest.files.filter((_name, each) => added[each])),
    notAdded: JSON.stringify(ingest.files.filter((_name, each) => !added[each])),
  });
  const record = recordTurn(store, {
    key: ingest.key,
    platform: 'slack',
    kind: 'ingest',
    location: location(0, []),
  });
  return { startFile: (index, added) => record.moved(location(index, added)), end: record.end };
}

/** What a recorded ingest's location says (see `recordSlackIngest`). */
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

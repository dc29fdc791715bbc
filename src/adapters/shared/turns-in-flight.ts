/**
 * Never a silent thread after a crash. A turn — an answer, or an ingest once its progress message
 * exists — is recorded in `bot.sqlite` when the adapter takes it on and forgotten once its outcome is
 * posted; a crash (kill -9, OOM, power) leaves the record, and the next start tells each such thread
 * what happened (ask again, or ingest again) — the platform will not redeliver the event, which was
 * already claimed. Clarifications waiting for a reply are not turns in flight: the graph keeps them
 * across restarts.
 */
import type { Logger } from '../../logger.ts';
import type { BotStateStore, TurnInFlight, TurnKind } from './bot-state-store.ts';

export interface TurnRecord {
  /** Where the thread can now be reached (e.g. once the status message is posted). */
  moved(location: Record<string, string>): void;
  /** The outcome was posted, or the thread was told to ask again. Idempotent. */
  end(): void;
}

export function recordTurn(
  store: BotStateStore,
  turn: Omit<TurnInFlight, 'startedAt' | 'kind'> & { startedAt?: number; kind?: TurnKind },
): TurnRecord {
  const started = { ...turn, kind: turn.kind ?? 'answer', startedAt: turn.startedAt ?? Date.now() };
  store.beginTurn(started);
  let ended = false;
  return {
    moved: (location) => {
      if (!ended) store.beginTurn({ ...started, location });
    },
    end: () => {
      if (ended) return;
      ended = true;
      store.endTurn(turn.key);
    },
  };
}

/**
 * Posts the notice for a recorded turn ("please ask again", or "ingest again" for an ingest) where
 * its location points; throws if it cannot.
 */
export type TellThread = (turn: TurnInFlight) => Promise<void>;

/**
 * Tells every unfinished turn of `platform` that it will get no outcome, one at a time (the
 * platforms rate-limit), and forgets it whether or not the notice could be posted (a deleted
 * channel must not be retried on every start). Returns how many threads were told.
 */
export async function tellUnfinishedTurns(options: {
  store: BotStateStore;
  platform: string;
  logger: Logger;
  tell: TellThread;
}): Promise<number> {
  const { store, platform, logger, tell } = options;
  let told = 0;
  for (const turn of store.unfinishedTurns(platform)) {
    try {
      await tell(turn);
      told++;
      logger.info(
        { key: turn.key, kind: turn.kind, startedAt: new Date(turn.startedAt).toISOString() },
        'told an unfinished turn what happened',
      );
    } catch (error) {
      // Not the location: an ingest's may hold an interaction token.
      logger.warn({ err: error, key: turn.key, kind: turn.kind }, 'could not tell an unfinished turn');
    }
    store.endTurn(turn.key);
  }
  return told;
}

/**
 * Never a silent thread after a crash. A turn is recorded in `bot.sqlite` when the adapter takes it
 * on and forgotten once its outcome is posted; a crash (kill -9, OOM, power) leaves the record, and
 * the next start tells each such thread to ask again — the platform will not redeliver the event,
 * which was already claimed. Clarifications waiting for a reply are not turns in flight: the graph
 * keeps them across restarts.
 */
import type { Logger } from '../../logger.ts';
import type { BotStateStore, TurnInFlight } from './bot-state-store.ts';

export interface TurnRecord {
  /** Where the thread can now be reached (e.g. once the status message is posted). */
  moved(location: Record<string, string>): void;
  /** The outcome was posted, or the thread was told to ask again. Idempotent. */
  end(): void;
}

export function recordTurn(
  store: BotStateStore,
  turn: Omit<TurnInFlight, 'startedAt'> & { startedAt?: number },
): TurnRecord {
  const started = { ...turn, startedAt: turn.startedAt ?? Date.now() };
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

/** Posts the "please ask again" notice where a recorded turn's location points; throws if it cannot. */
export type TellThread = (location: Record<string, string>) => Promise<void>;

/**
 * Tells every unfinished turn of `platform` that it will get no answer, one at a time (the
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
      await tell(turn.location);
      told++;
      logger.info(
        { key: turn.key, startedAt: new Date(turn.startedAt).toISOString() },
        'told an unfinished turn to ask again',
      );
    } catch (error) {
      logger.warn(
        { err: error, key: turn.key, location: turn.location },
        'could not tell an unfinished turn to ask again',
      );
    }
    store.endTurn(turn.key);
  }
  return told;
}

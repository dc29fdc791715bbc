/**
 * Turns a dead process or replica left behind. At start each platform adopts its orphaned turns:
 * every thread is told what happened (ask again / what was not ingested) and its record forgotten.
 * With replicas a sweeper (`sweepIntervalMs`) then adopts the turns of dead replicas while this one
 * lives: their threads are told (each by exactly one replica), their queued answers answered here.
 */
import type { ChatPlatform, Reply } from '../core/chat-platform.ts';
import type { QueuedAnswer, TurnInFlight } from '../core/coordination-store.ts';
import { describeError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { interruptedIngest } from './ingest-location.ts';
import type { RunnableAnswer, RunnerContext } from './runner-context.ts';

/**
 * Adopts the turns a dead process or replica left on `platform`: a queued answer (replicas) is
 * answered here; every other turn's thread is told what happened, and its record forgotten.
 * Returns how many threads were told.
 */
export async function tellOrphans(
  context: RunnerContext,
  platform: ChatPlatform,
  log: Logger,
  answer: (job: RunnableAnswer) => void,
  options: { concurrently?: boolean } = {},
): Promise<number> {
  let orphans: TurnInFlight[];
  try {
    orphans = await context.store.adoptOrphanedTurns(platform.name);
  } catch (error) {
    log.error({ err: error }, 'could not read the turns a crash left');
    return 0;
  }
  let told = 0;
  const tell = async (turn: TurnInFlight) => {
    if (turn.kind === 'answer' && turn.answer) {
      log.info({ key: turn.key }, 'answering a queued turn of a replica that is gone');
      answer(adoptedAnswer(platform, turn, turn.answer));
      return;
    }
    const reply: Reply =
      turn.kind === 'ingest'
        ? { kind: 'interrupted-ingest', ingest: interruptedIngest(turn.location) }
        : { kind: 'restarted' };
    try {
      const surface = await platform.reopen(turn);
      await surface.finish(reply);
      told++;
      log.info(
        { key: turn.key, kind: turn.kind, startedAt: new Date(turn.startedAt).toISOString() },
        'told an unfinished turn what happened',
      );
    } catch (error) {
      // Not the location: an ingest's may hold an interaction token.
      log.warn(
        { err: describeError(error), key: turn.key, kind: turn.kind },
        'could not tell an unfinished turn',
      );
    }
    // Forgotten either way: a deleted channel must not be retried on every start.
    await context.endTurn(turn.key);
  };
  if (options.concurrently) await Promise.all(orphans.map(tell));
  else for (const turn of orphans) await tell(turn);
  return told;
}

/** A queued answer adopted from a dead replica, as a job: its status is reopened where it stands. */
function adoptedAnswer(platform: ChatPlatform, turn: TurnInFlight, answer: QueuedAnswer): RunnableAnswer {
  return {
    key: turn.key,
    text: answer.text,
    reference: answer.reference,
    ...(answer.logFields ? { logFields: answer.logFields } : {}),
    location: turn.location,
    thread: turn.thread ?? { threadId: answer.place.threadId, position: '0' },
    adopted: true,
    open: async () => ({ surface: await platform.reopen(turn), place: answer.place }),
  };
}

/** Sweeps every platform that told its orphans at start (and is not stopping), one sweep at a time. */
export interface Sweeper {
  /** Starts the timer, once, if an interval is set and the shared store is not lost. */
  start(): void;
  stop(): void;
}

export function createSweeper(context: RunnerContext, intervalMs: number | undefined): Sweeper {
  let timer: NodeJS.Timeout | undefined;
  let sweeping = false;
  const sweep = async () => {
    if (sweeping || context.lost) return;
    sweeping = true;
    try {
      for (const attached of context.platforms.values()) if (!attached.stopping) await attached.sweep?.();
    } finally {
      sweeping = false;
    }
  };
  return {
    start: () => {
      if (timer || intervalMs === undefined || context.lost) return;
      timer = setInterval(() => void sweep(), intervalMs);
      timer.unref();
    },
    stop: () => {
      clearInterval(timer);
      timer = undefined;
    },
  };
}

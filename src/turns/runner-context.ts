/**
 * What the parts of the turn runner share, passed to each explicitly: the store and services, the
 * attached platforms, the jobs in flight, whether the shared store was lost — and the store writes
 * every part makes the same way. Storage failures never silence a thread: a failed claim counts as a
 * first claim (at worst a duplicate delivery is answered twice), a failed write lets the job go on
 * unrecorded, and a failed end is retried with the next end and at stop (so no false "restarted"
 * notice follows).
 */
import type { AnswerJob, ChatPlatform, Reply, ReplySurface } from '../core/chat-platform.ts';
import type { CoordinationStore, NewTurn, TurnKind } from '../core/coordination-store.ts';
import type { TurnHistory } from '../core/turn-history.ts';
import type { Conversations, Ingestion } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { type AcknowledgementGate, createAcknowledgementGate } from './acknowledgement-gate.ts';
import type { Budgets, PlatformBudgets } from './platform-budgets.ts';

/** An answer to run: from a platform, or adopted from a dead replica (recorded already, owned here). */
export interface RunnableAnswer extends AnswerJob {
  adopted?: boolean;
}

/** A job in flight, as a stop sees it. */
export interface RunningJob {
  platform: string;
  /** The budgets its edits and replies draw from (its workspace's, where the platform counts so). */
  budgets: Budgets;
  kind: TurnKind;
  key: string;
  done: Promise<void>;
  /** Set once the thread shows the status; a stop tells abandoned jobs through it. */
  surface?: ReplySurface;
  /** Whether the turn record was begun (so a stop that cannot tell the thread leaves it to the next start). */
  recorded: boolean;
  /** A stop gave up on it: its outcome is not delivered, its record is left to the stop. */
  abandoned: boolean;
  /** What to tell the thread if a stop gives up on the job. */
  abandonReply(): Reply;
  /**
   * Replicas: set while the answer waits for its thread's turn (not started). A stop that gives up on
   * it releases it instead of telling the thread: its record stays queued, and a replica that lives
   * on answers it once this one is gone.
   */
  release?: () => void;
}

/** Work a platform tracks beside its jobs (a stop drains it too). */
export interface BackgroundWork {
  platform: string;
  done: Promise<void>;
}

export interface AttachedPlatform {
  platform: ChatPlatform;
  /** Its rate budgets, per workspace or for the whole bot as the platform counts them. */
  budgets: PlatformBudgets;
  stopping: boolean;
  /** Set once it told its orphans at start: from then on it is swept (replicas). */
  sweep?: () => Promise<number>;
}

/** What the runner is given: the store and services, and its timings (defaults applied). */
export interface RunnerSettings {
  store: CoordinationStore;
  /** Where every answer turn is recorded with its outcome (`ragent report`). */
  turnHistory: TurnHistory;
  conversations: Conversations;
  ingestion: Ingestion;
  logger: Logger;
  /** The conversation's deadline plus its grace: then the overdue notice. */
  deadlineMs: number;
  /** At most this long a job lets newer acknowledgements go first. */
  acknowledgementWaitMs: number;
  /** How long a stop may spend telling abandoned threads. */
  noticeTimeoutMs: number;
  /** Whether replies in the bot's threads are turns without a mention (`RAGENT_FOLLOW_UPS`). */
  followUps: boolean;
}

export interface RunnerContext extends RunnerSettings {
  gate: AcknowledgementGate;
  platforms: Map<string, AttachedPlatform>;
  jobs: Set<RunningJob>;
  background: Set<BackgroundWork>;
  /** This replica lost the state it shares with the others: it takes no new work. */
  lost: boolean;
  /** Forgets the turn `key` and every earlier one whose end failed. */
  endTurn(key: string): Promise<void>;
  /** Retries the ends that failed. */
  endTurns(): Promise<void>;
}

export function createRunnerContext(settings: RunnerSettings): RunnerContext {
  const { store, logger } = settings;
  /** Turn records whose end failed: retried with the next end and at stop. */
  const unended = new Set<string>();
  /** Forgets the turn `key` (if any) and every earlier one whose end failed. */
  const endTurns = async (key?: string) => {
    for (const pending of key ? [key, ...unended] : [...unended]) {
      try {
        await store.endTurn(pending);
        unended.delete(pending);
      } catch (error) {
        unended.add(pending);
        logger.error({ err: error, key: pending }, 'could not forget a finished turn; will retry');
      }
    }
  };
  return {
    ...settings,
    gate: createAcknowledgementGate(),
    platforms: new Map(),
    jobs: new Set(),
    background: new Set(),
    lost: false,
    endTurn: (key) => endTurns(key),
    endTurns: () => endTurns(),
  };
}

/** Claims an event (dedupe); refused once the shared store is lost, taken as first if the claim fails. */
export async function claimEvent(context: RunnerContext, key: string, log: Logger): Promise<boolean> {
  // The other replicas take it (this one lost the state they share).
  if (context.lost) return false;
  try {
    return await context.store.claimEvent(key);
  } catch (error) {
    // Never a silent thread: answer (at worst twice) rather than drop the event.
    log.error({ err: error, key }, 'could not record the event; handling it anyway');
    return true;
  }
}

/**
 * Claims the event `turn.key` and begins its turn in one write: `refused` for a duplicate delivery
 * (or once the shared store is lost: the other replicas take it), `unrecorded` when the write failed
 * (answered anyway, at worst twice, rather than dropped), else `recorded`.
 */
export async function claimAndBeginTurn(
  context: RunnerContext,
  turn: NewTurn,
  log: Logger,
): Promise<'recorded' | 'refused' | 'unrecorded'> {
  if (context.lost) return 'refused';
  try {
    return (await context.store.claimAndBeginTurn(turn)) ? 'recorded' : 'refused';
  } catch (error) {
    log.error({ err: error }, 'could not record the event and its turn; answering it anyway');
    return 'unrecorded';
  }
}

/** Runs a store write; a failure is logged and reported as false (the job goes on unrecorded). */
export async function tryStore(log: Logger, what: string, write: () => Promise<void>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    log.error({ err: error }, `could not ${what}; going on without it`);
    return false;
  }
}

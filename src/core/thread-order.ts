/**
 * Thread order: a thread's answer turns run one at a time, in the platform's order of their messages.
 * Replicas on PostgreSQL order them across replicas (`stores/postgres/postgres-thread-order.ts`); one
 * process alone (SQLite) runs the work at once, because its conversations already queue a thread's
 * turns in the process. A port of the coordination store (`coordination-store.ts`); its contract is
 * `test/stores/contracts/thread-order-contract.ts`.
 */
import type { QueuedAnswer, ThreadPosition } from './turn-records.ts';

/** A recorded answer turn about to run in its thread's order. */
export interface OrderedTurn {
  key: string;
  thread: ThreadPosition;
  /** Where its status is now (recorded with it). */
  location: Record<string, string>;
  answer: QueuedAnswer;
}

/** How `runInThreadOrder` went: the work's result, or why this replica did not run it. */
export type OrderedRun<Result> =
  | { ran: true; result: Result }
  /**
   * `lost`: this replica lost the shared store while the turn waited; `taken-over`: the turn's record
   * is no longer this replica's (ended by a stop, or adopted); `released`: `signal` was aborted while
   * it waited (a stop), its record stays queued for a replica that lives on. Either way the turn is
   * left to whoever holds its record: nothing is delivered and the record is not ended here.
   */
  | { ran: false; reason: 'lost' | 'taken-over' | 'released' };

export interface ThreadOrderEvents {
  /** The turn waits for `ahead` earlier turns of its thread (called when it starts waiting). */
  onQueued?(ahead: number): void;
  /** A store write failed; the turn runs anyway (never a silent thread). */
  onStoreError?(error: unknown, what: string): void;
  /** Aborted: stop waiting (`released`); a turn already running is not affected. */
  signal?: AbortSignal;
}

export interface ThreadOrder {
  /**
   * Records the turn as acknowledged (its location, and what is needed to answer it elsewhere) and
   * runs `work` once every earlier turn of its thread — by the platform's order, whichever replica
   * received it — has ended, and no other turn of the thread runs. The turn must have been begun
   * with its `thread`.
   */
  runInThreadOrder<Result>(
    turn: OrderedTurn,
    work: () => Promise<Result>,
    events?: ThreadOrderEvents,
  ): Promise<OrderedRun<Result>>;
  /**
   * Whether a turn's record holds up the rest of its thread for others (replicas): then a turn whose
   * thread could not be told is ended at once rather than kept for the next start to tell, which
   * would hold the thread until this replica is gone. False for one process alone.
   */
  readonly recordsHoldThreads: boolean;
}

/**
 * Turn records: which turns are in flight and who owns them, so a crash never leaves a silent
 * thread (the next start, or another replica, adopts the record and tells the thread or answers).
 * A port of the coordination store (`coordination-store.ts`); its contract is
 * `test/stores/contracts/turn-records-contract.ts`.
 */
import type { Scope, ThreadId } from './types.ts';

/** What was in flight: an answer to a question, or an ingest of files shared in chat. */
export type TurnKind = 'answer' | 'ingest';

export interface TurnInFlight {
  /** The claimed event's key. */
  key: string;
  /** 'slack' | 'discord' | … */
  platform: string;
  kind: TurnKind;
  /** Id of the process/replica running it. */
  owner: string;
  /** What the platform needs to reach the thread again. */
  location: Record<string, string>;
  /** Epoch ms. */
  startedAt: number;
  /** An answer's thread and position in it (replicas). */
  thread?: ThreadPosition;
  /**
   * Replicas only: an answer that was acknowledged and queued behind an earlier turn of its thread,
   * not started. Whoever adopts it answers it (at `location`, its status) instead of telling the thread.
   */
  answer?: QueuedAnswer;
}

/** Where a turn stands in its thread: a thread's turns run one at a time, in this order. */
export interface ThreadPosition {
  threadId: ThreadId;
  /** The platform's timestamp of the message as a decimal string (Slack `ts`, Discord snowflake). */
  position: string;
}

/** What a replica needs to answer a queued turn that another replica acknowledged. */
export interface QueuedAnswer {
  text: string;
  /** The conversation's place, as the receiving platform fixed it (never from the text). */
  place: { threadId: ThreadId; scopes: Scope[]; user: string };
  reference: string;
  logFields?: Record<string, string>;
}

/** A turn as it is begun. */
export interface NewTurn {
  key: string;
  platform: string;
  kind: TurnKind;
  location: Record<string, string>;
  startedAt?: number;
  /** An answer's place in its thread's order (replicas order by it; see `ThreadOrder`). */
  thread?: ThreadPosition;
}

export interface TurnRecords {
  /** This process's/replica's id: the owner of the turns it begins or adopts. */
  readonly replicaId: string;
  beginTurn(turn: NewTurn): Promise<void>;
  /**
   * Claims the event `turn.key` and, if this is its first claim, begins the turn, in one write (one
   * transaction). False: a duplicate delivery, nothing begun.
   */
  claimAndBeginTurn(turn: NewTurn): Promise<boolean>;
  moveTurn(key: string, location: Record<string, string>): Promise<void>;
  /** Outcome delivered or thread told: forget it. A no-op after close(). */
  endTurn(key: string): Promise<void>;
  /**
   * Turns of `platform` whose owner is gone (crashed process or replica), oldest first, now owned by
   * this replica. Each is handed to exactly one caller, also among replicas sweeping at once.
   */
  adoptOrphanedTurns(platform: string): Promise<TurnInFlight[]>;
}

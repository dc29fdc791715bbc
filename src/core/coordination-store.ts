/**
 * The coordination store port: what the turn runner remembers outside the process — which platform
 * events were already claimed (dedupe, across restarts and replicas), which turns are in flight and
 * who owns them (so a crash never leaves a silent thread), 👍/👎 feedback and the answers it is about, and
 * channel links (a channel that also searches another channel's document set). Async, because one
 * implementation is an embedded SQLite file (`stores/sqlite-coordination-store.ts`, one process) and
 * another is a Postgres database shared by replicas. Every implementation passes the same contract
 * spec (`test/turns/coordination-store-contract.ts`).
 */
import type { RagentError } from '../errors.ts';
import type { Feedback, Scope, Source, ThreadId } from './types.ts';

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

/** What an answer was when it was delivered: what 👍/👎 feedback refers to, for `ragent feedback export`. */
export interface DeliveredAnswer {
  answerId: string;
  threadId: ThreadId;
  /** The question as the user asked it. */
  question: string;
  /** The answer's Markdown without its sources block. */
  answer: string;
  sources: Source[];
  /** A link to the thread, where the platform can make one. */
  link?: string;
  /** ISO 8601 (default: now). */
  at?: string;
}

export interface CoordinationStore {
  readonly replicaId: string;
  /** True the first time `key` is claimed (remembered a day); false for a duplicate delivery. */
  claimEvent(key: string): Promise<boolean>;
  beginTurn(turn: {
    key: string;
    platform: string;
    kind: TurnKind;
    location: Record<string, string>;
    startedAt?: number;
    /** An answer's place in its thread's order (replicas order by it; see `runInThreadOrder`). */
    thread?: ThreadPosition;
  }): Promise<void>;
  /**
   * Claims the event `turn.key` and, if this is its first claim, begins the turn — in one write where
   * the store can (`claimEvent` then `beginTurn` otherwise). False: a duplicate delivery, nothing begun.
   */
  claimAndBeginTurn?(turn: Parameters<CoordinationStore['beginTurn']>[0]): Promise<boolean>;
  moveTurn(key: string, location: Record<string, string>): Promise<void>;
  /** Outcome delivered or thread told: forget it. A no-op after close(). */
  endTurn(key: string): Promise<void>;
  /**
   * Turns of `platform` whose owner is gone (crashed process or replica), oldest first, now owned by
   * this replica. Each is handed to exactly one caller, also among replicas sweeping at once.
   */
  adoptOrphanedTurns(platform: string): Promise<TurnInFlight[]>;
  /**
   * Replicas only (a store shared by several processes). Records the turn as acknowledged (its
   * location and what is needed to answer it elsewhere) and runs `work` once every earlier turn of
   * its thread — by the platform's order, whichever replica received it — has ended, and no other
   * turn of the thread runs. The turn must have been begun with its `thread`. Without this method the
   * process is alone, and its conversations queue a thread's turns themselves.
   */
  runInThreadOrder?<Result>(
    turn: OrderedTurn,
    work: () => Promise<Result>,
    events?: ThreadOrderEvents,
  ): Promise<OrderedRun<Result>>;
  /**
   * Replicas only: `listener` is called once if this replica loses the shared store (its turns are
   * then other replicas' to take over): it must take no new work.
   */
  onLost?(listener: (error: RagentError) => void): void;
  recordFeedback(feedback: Feedback): Promise<void>;
  /** Remembers a delivered answer (the same id again replaces it). */
  recordAnswer(answer: DeliveredAnswer): Promise<void>;
  /** The recorded answers among `answerIds` (unknown ids are left out), `at` always set. */
  findAnswers(answerIds: readonly string[]): Promise<Array<DeliveredAnswer & { at: string }>>;
  listFeedback(options?: { threadId?: ThreadId; since?: string }): Promise<Feedback[]>;
  /**
   * Channel links (`channel_links`: channel scope → linked channel scope). The caller checks that both
   * are channels of one workspace/server (turns/channel-links). True when the link is new / was there.
   */
  linkChannel(channel: Scope, linked: Scope): Promise<boolean>;
  unlinkChannel(channel: Scope, linked: Scope): Promise<boolean>;
  /** The channel scopes `channel` is linked to, sorted. */
  linkedChannels(channel: Scope): Promise<Scope[]>;
  close(): Promise<void>;
}

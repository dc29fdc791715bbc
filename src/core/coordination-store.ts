/**
 * The coordination store port: what the turn runner remembers outside the process — which platform
 * events were already claimed (dedupe, across restarts and replicas), which turns are in flight and
 * who owns them (so a crash never leaves a silent thread), 👍/👎 feedback and the answers it is about, and
 * channel links (a channel that also searches another channel's document set). Async, because one
 * implementation is an embedded SQLite file (`stores/sqlite-coordination-store.ts`, one process) and
 * another is a Postgres database shared by replicas. Every implementation passes the same contract
 * spec (`test/turns/coordination-store-contract.ts`).
 */
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
  }): Promise<void>;
  moveTurn(key: string, location: Record<string, string>): Promise<void>;
  /** Outcome delivered or thread told: forget it. A no-op after close(). */
  endTurn(key: string): Promise<void>;
  /** Turns of `platform` whose owner is gone (crashed process or replica), oldest first, now owned by this replica. */
  adoptOrphanedTurns(platform: string): Promise<TurnInFlight[]>;
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

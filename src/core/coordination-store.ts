import type { Feedback, ThreadId } from './types.ts';
export type TurnKind = 'answer' | 'ingest';
export interface TurnInFlight {
  key: string; // the claimed event's key
  platform: string; // 'slack' | 'discord'
  kind: TurnKind;
  owner: string; // id of the process/replica running it
  location: Record<string, string>; // what the platform needs to reach the thread again
  startedAt: number; // epoch ms
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
  listFeedback(options?: { threadId?: ThreadId; since?: string }): Promise<Feedback[]>;
  close(): Promise<void>;
}

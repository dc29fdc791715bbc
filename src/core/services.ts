/**
 * What the composition root (`src/main.ts`) builds once and hands to every entry point (chat
 * platforms, the CLI). Chat adapters import this type, never the composition root; the CLI, which
 * owns the composition root, gets `AppServices` (these plus the index and retriever) from `main.ts`.
 */
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { TurnRunner } from './chat-platform.ts';
import type { CoordinationStore } from './coordination-store.ts';
import type { Replicas } from './replicas.ts';
import type { TurnHistory } from './turn-history.ts';
import type { Conversations, Ingestion, WebIngestion } from './types.ts';
import type { VerifiedAnswers } from './verified-answers.ts';

export interface Services {
  config: Config;
  logger: Logger;
  ingestion: Ingestion;
  /** Web pages by URL (`ingest <url>`, crawls, refetches), through the one guarded fetcher. */
  web: WebIngestion;
  conversations: Conversations;
  /** Event claims, turns in flight and feedback (SQLite in `bot.sqlite`). */
  coordination: CoordinationStore;
  /** Every turn with its outcome, for `ragent report` (question texts kept RAGENT_RETENTION_DAYS). */
  turnHistory: TurnHistory;
  /** Answers admins verified, per scope (`ragent answers`), served without the model. */
  verifiedAnswers: VerifiedAnswers;
  /** The one turn runner, shared by every chat platform of the process. */
  turns: TurnRunner;
  /** The other replicas as platforms see them: shares of rate budgets, leases of Discord shards. */
  replicas: Replicas;
  /** Starts what a long-running process wants ready early (the embedded index's search snapshot). */
  warmUp?(): void;
  /** Closes conversations, the index and, last, the coordination store. */
  close(): Promise<void>;
}

/**
 * The one turn runner of the process, created by the composition root and shared by every chat
 * platform. A platform attaches with a small port (`ChatPlatform`) and hands over jobs — an answer
 * turn or an ingest — with a way to open its reply surface; the runner owns the rest, the same for
 * every platform. Its parts, each documented in its own file, share one `RunnerContext`:
 *
 * - `attach-platform.ts`: a platform's edit budgets and the port its work goes through;
 * - `run-answer.ts` / `run-ingest.ts`: the two kinds of turn, from the claim to the delivery
 *   (`deliver-reply.ts`), each with its turn record, so a crash never leaves a silent thread;
 * - `orphaned-turns.ts`: the turns a crash or a dead replica left (at start, then swept);
 * - `stop-turns.ts`: stopping with one bounded drain, telling the abandoned threads.
 *
 * With replicas (a store shared through PostgreSQL), losing the shared store (`onLost`) stops taking
 * work: claims are refused, every platform is told to `stopTaking`, answers in flight finish; turns
 * still waiting are left to the other replicas.
 */
import type { TurnRunner } from '../core/chat-platform.ts';
import type { CoordinationStore } from '../core/coordination-store.ts';
import type { TurnHistory } from '../core/turn-history.ts';
import type { Conversations, Ingestion } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { attachPlatform, loseTaking } from './attach-platform.ts';
import { createSweeper } from './orphaned-turns.ts';
import { createRunnerContext } from './runner-context.ts';
import { stopTurns } from './stop-turns.ts';

export interface TurnRunnerOptions {
  store: CoordinationStore;
  /** Where every answer turn is recorded with its outcome (`ragent report`). */
  turnHistory: TurnHistory;
  conversations: Conversations;
  ingestion: Ingestion;
  logger: Logger;
  /** The conversation's own deadline; the overdue notice comes `deadlineGraceMs` later. */
  answerTimeoutMs: number;
  /** Default 10 s. */
  deadlineGraceMs?: number;
  /** At most this long a job lets newer acknowledgements go first (default 1 s). */
  acknowledgementWaitMs?: number;
  /** How long a stop may spend telling abandoned threads (default 3 s). */
  noticeTimeoutMs?: number;
  /** Whether replies in the bot's threads are turns without a mention (default true). */
  followUps?: boolean;
  /** This replica's share of each platform's edit budget (1 / live replicas; default 1: alone). */
  budgetShare?: () => number;
  /**
   * Replicas: how often to sweep for turns of dead replicas (tell their threads, answer their queued
   * turns), per platform once it told its orphans at start. Unset: only at start (one process).
   */
  sweepIntervalMs?: number;
}

export function createTurnRunner(options: TurnRunnerOptions): TurnRunner {
  const { store, conversations, ingestion, logger } = options;
  const context = createRunnerContext({
    store,
    conversations,
    ingestion,
    logger,
    turnHistory: options.turnHistory,
    deadlineMs: options.answerTimeoutMs + (options.deadlineGraceMs ?? 10_000),
    acknowledgementWaitMs: options.acknowledgementWaitMs ?? 1_000,
    noticeTimeoutMs: options.noticeTimeoutMs ?? 3_000,
    followUps: options.followUps ?? true,
  });
  const sweeper = createSweeper(context, options.sweepIntervalMs);
  store.onLost((error) => {
    context.lost = true;
    sweeper.stop();
    logger.error(
      { code: error.code, platforms: [...context.platforms.keys()] },
      'lost the shared database: this replica takes no new work; the other replicas take over its threads',
    );
    for (const attached of context.platforms.values()) loseTaking(attached);
  });
  return {
    attach: (platform) => attachPlatform(context, sweeper, platform, options.budgetShare),
    stop: (timeoutMs) => stopTurns(context, sweeper, [...context.platforms.keys()], timeoutMs),
  };
}

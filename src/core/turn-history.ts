/**
 * The turn history port: one row per turn — every platform's and the CLI's, whatever it ended with —
 * so an operator can see what was asked, what was missed and which documents carried the answers
 * (`ragent report`). Votes are not copied here: they join by answer id (a record of an answered turn
 * has the answer's id). Replica-safe: a record is written once per id (a turn adopted by another
 * replica, or recorded again after a retry, stays one row). Implementations: SQLite (`bot.sqlite`,
 * `stores/sqlite-turn-history.ts`) and PostgreSQL (`stores/postgres/postgres-turn-history.ts`), both
 * passing `test/stores/contracts/turn-history-contract.ts`.
 */
import type { RagentError } from '../errors.ts';
import type { Scope, ThreadId, TurnOutcome, TurnResult } from './types.ts';

/**
 * How a turn ended. `not-found`: answered that the documents do not cover it; `clarification`: asked
 * the user a question back; `stopped`: a short reply instead of an answer (an empty or too long
 * message); `failed`: an error (with its code), also an answer cut off midway; `verified`: a verified
 * answer served without the model; `handed-off`: passed to a person.
 */
export type { TurnOutcome };

export interface CitedDocument {
  documentId: string;
  name: string;
}

export interface PastTurn {
  /** The answer's id when the turn delivered one (votes refer to it), else the turn's own key. */
  id: string;
  /** `slack`, `discord`, `cli`, … */
  platform: string;
  /** The document scopes the turn searched, as the platform fixed them. */
  scopes: readonly Scope[];
  threadId: ThreadId;
  user: string;
  /** The question as asked; '' once past retention (or never kept: RAGENT_RETENTION_DAYS=0). */
  question: string;
  /** ISO 8601. */
  startedAt: string;
  durationMs: number;
  outcome: TurnOutcome;
  /** The RagentError code of a failed turn. */
  errorCode?: string;
  citedDocuments: readonly CitedDocument[];
  /** A link to the thread, where the platform gives one. */
  link?: string;
}

export interface TurnHistoryQuery {
  /** ISO 8601: turns started at or after. */
  since?: string;
  /** ISO 8601: turns started before. */
  until?: string;
  /** Only turns that searched at least one of these scopes. */
  scopes?: readonly Scope[];
  platform?: string;
}

export interface TurnHistory {
  /** Records a turn; a second record with the same id is ignored (the first one stands). */
  recordTurn(record: PastTurn): Promise<void>;
  /** The recorded turns matching `query`, oldest first (by start, then id). */
  listTurns(query?: TurnHistoryQuery): Promise<PastTurn[]>;
  /** Deletes the question text of turns started before `before` (ISO 8601); how many it cleared. */
  forgetQuestionsBefore(before: string): Promise<number>;
  close(): Promise<void>;
}

/** How a turn settled: its result, or the error it threw. */
export type SettledTurn = { result: TurnResult } | { error: RagentError };

/**
 * What a record says about how the turn ended: its id (the answer's, which votes refer to, else
 * `key`), outcome, error code and the documents the answer cites (once each, in order).
 */
export function settledOutcome(
  settled: SettledTurn,
  key: string,
): Pick<PastTurn, 'id' | 'outcome' | 'errorCode' | 'citedDocuments'> {
  if ('error' in settled)
    return { id: key, outcome: 'failed', errorCode: settled.error.code, citedDocuments: [] };
  const { result } = settled;
  switch (result.kind) {
    case 'answer': {
      const cited = new Map<string, CitedDocument>();
      for (const source of result.answer.sources)
        if (!cited.has(source.docId))
          cited.set(source.docId, { documentId: source.docId, name: source.file });
      return {
        id: result.answer.id,
        outcome: result.answer.verified ? 'verified' : result.answer.outcome,
        citedDocuments: [...cited.values()],
      };
    }
    case 'clarification':
      return { id: key, outcome: 'clarification', citedDocuments: [] };
    case 'stopped':
      return { id: key, outcome: 'stopped', citedDocuments: [] };
  }
}

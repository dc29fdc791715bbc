/**
 * Feedback: 👍/👎 votes and the delivered answers they are about, for `ragent feedback export`. A
 * port of the coordination store (`coordination-store.ts`); its contract is
 * `test/stores/contracts/feedback-store-contract.ts`.
 */
import type { Feedback, Source, ThreadId } from './types.ts';

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

export interface FeedbackStore {
  /** Keeps one vote per user and answer: the latest. */
  recordFeedback(feedback: Feedback): Promise<void>;
  /** Remembers a delivered answer (the same id again replaces it). */
  recordAnswer(answer: DeliveredAnswer): Promise<void>;
  /** The recorded answers among `answerIds` (unknown ids are left out), `at` always set. */
  findAnswers(answerIds: readonly string[]): Promise<Array<DeliveredAnswer & { at: string }>>;
  listFeedback(options?: { threadId?: ThreadId; since?: string }): Promise<Feedback[]>;
}

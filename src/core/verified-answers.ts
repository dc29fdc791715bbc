/**
 * The verified answers port: answers an admin vouched for, per scope, served as they are to a later
 * question that means the same (`retrieval/verified-answer-matcher.ts`), without a model call. Each
 * remembers the documents it came from by id (the SHA-256 of their bytes), so one of whose documents
 * was forgotten or changed since is flagged stale. Implementations: SQLite (`bot.sqlite`,
 * `stores/sqlite-verified-answers.ts`) and PostgreSQL (`stores/postgres/postgres-verified-answers.ts`),
 * both passing `test/stores/contracts/verified-answers-contract.ts`.
 */
import type { Scope } from './types.ts';

export interface VerifiedAnswerSource {
  /** The document's name, as answers cite it. */
  file: string;
  /** 1-based, inclusive (the whole document when the admin named no page). */
  pages: [number, number];
  /** The document's id when it was verified: no document of the scope with this id now = stale. */
  documentId?: string;
}

/**
 * A verified answer keeps at most this many sources (the first ones, in the answer's order). Answers
 * rarely cite more; the cap only bounds what one row and one served reply can carry.
 */
export const maxVerifiedSources = 10;

export interface VerifiedAnswer {
  /** Short and typeable (`ragent answers remove ID`). */
  id: string;
  scope: Scope;
  /** The question as the admin wrote it (what later questions are matched against). */
  question: string;
  /** Markdown. */
  answer: string;
  /**
   * What the answer rests on, in order (none: it names no document). When the answer cites by number,
   * [1] is the first of these.
   */
  sources: VerifiedAnswerSource[];
  /** Who verified it: a platform user id, or `cli`. */
  verifiedBy: string;
  /** ISO 8601. */
  verifiedAt: string;
}

export interface VerifiedAnswers {
  /** Adds a verified answer (the same id again replaces it). */
  addVerifiedAnswer(answer: VerifiedAnswer): Promise<void>;
  /** The verified answers of these scopes (every scope's when unset), oldest first. */
  listVerifiedAnswers(scopes?: readonly Scope[]): Promise<VerifiedAnswer[]>;
  /** True when it was there. */
  removeVerifiedAnswer(id: string): Promise<boolean>;
  close(): Promise<void>;
}

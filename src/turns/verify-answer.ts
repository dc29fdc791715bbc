/**
 * "Verify" on an answer in a chat (admins only; the platform checks who pressed it): the delivered
 * answer — its question as the user asked it, its text and its sources (in order, at most
 * `maxVerifiedSources`) — becomes a verified answer of the scope the press came from (the channel's
 * own document set), served from then on to a question that means the same, without the model.
 * Its `[n]` citation numbers stay when each still points at a kept source ([1] the first, as in the
 * delivered answer); otherwise (a number beyond the cap, or one no source backs) they are all removed,
 * since a number pointing at no source, or at the wrong one, is worse than none. Its id is made from
 * the answer's id, so a second press (or the same press on two replicas) replaces the one verified
 * answer instead of adding another.
 */
import { createHash } from 'node:crypto';
import { citesWithin } from '../core/citation-markers.ts';
import type { FeedbackStore } from '../core/feedback-store.ts';
import type { Scope, ThreadId } from '../core/types.ts';
import { maxVerifiedSources, type VerifiedAnswer, type VerifiedAnswers } from '../core/verified-answers.ts';

export interface VerifyRequest {
  answerId: string;
  /** The thread the button was pressed in: the answer must belong to it. */
  threadId: ThreadId;
  /** The channel's own set where the answer was given (fixed by the platform from where the press came). */
  scope: Scope;
  /** The admin's platform user id. */
  by: string;
  /** ISO 8601 (default: now). */
  at?: string;
}

export type VerifyOutcome =
  | { kind: 'verified'; answer: VerifiedAnswer }
  /** The answer is not on record (never delivered, or recorded in another thread). */
  | { kind: 'unknown' };

export async function verifyAnswer(
  stores: { feedback: Pick<FeedbackStore, 'findAnswers'>; verifiedAnswers: VerifiedAnswers },
  request: VerifyRequest,
): Promise<VerifyOutcome> {
  const [delivered] = await stores.feedback.findAnswers([request.answerId]);
  if (!delivered || delivered.threadId !== request.threadId || !delivered.question.trim())
    return { kind: 'unknown' };
  const sources = delivered.sources.slice(0, maxVerifiedSources).map((source) => ({
    file: source.file,
    pages: source.pages,
    ...(source.docId ? { documentId: source.docId } : {}),
  }));
  const verified: VerifiedAnswer = {
    id: verifiedAnswerIdOf(request.answerId),
    scope: request.scope,
    question: delivered.question.trim(),
    answer: citesWithin(delivered.answer, sources.length)
      ? delivered.answer.trim()
      : withoutCitationNumbers(delivered.answer),
    sources,
    verifiedBy: request.by,
    verifiedAt: request.at ?? new Date().toISOString(),
  };
  await stores.verifiedAnswers.addVerifiedAnswer(verified);
  return { kind: 'verified', answer: verified };
}

/** The same answer always gets the same short id (`ragent answers remove ID` types it). */
export function verifiedAnswerIdOf(answerId: string): string {
  return `c${createHash('sha256').update(answerId).digest('hex').slice(0, 9)}`;
}

/** `Use a loop [1][2].` → `Use a loop.` */
export function withoutCitationNumbers(text: string): string {
  return text
    .replace(/\s*(?:\[\d{1,3}\])+/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}

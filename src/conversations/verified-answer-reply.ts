/**
 * A question that means the same as a verified answer of its scopes gets that answer at once, as it
 * was verified — labelled, with who verified it and when, and its sources (numbered when its text
 * cites them by number) — and no chat-model call.
 * Not while the thread waits for the reply to a clarification (that message answers the question
 * asked back). A failure to look up only costs the shortcut: the turn goes on to the graph.
 */
import { randomUUID } from 'node:crypto';
import { citesWithin } from '../core/citation-markers.ts';
import type { Answer, Source, ThreadId, TurnRequest, TurnResult } from '../core/types.ts';
import type { VerifiedAnswer } from '../core/verified-answers.ts';
import { appendSources } from '../graph/sources.ts';
import type { Logger } from '../logger.ts';
import type { VerifiedAnswerMatcher } from '../retrieval/verified-answer-matcher.ts';

export interface VerifiedReplyDependencies {
  matcher: VerifiedAnswerMatcher;
  /** Whether the thread waits for the reply to a clarification question. */
  awaitsClarification(threadId: ThreadId): Promise<boolean>;
  logger: Logger;
}

export async function verifiedReply(
  dependencies: VerifiedReplyDependencies,
  request: TurnRequest,
  signal?: AbortSignal,
): Promise<TurnResult | undefined> {
  const { matcher, logger } = dependencies;
  try {
    const match = await matcher.match(request.text, request.scopes, signal);
    // Looked at only on a match: most turns have none, and then pay no read of the thread's state.
    if (!match || (await dependencies.awaitsClarification(request.threadId))) return undefined;
    logger.info(
      { threadId: request.threadId, verifiedAnswer: match.answer.id, score: match.score, by: match.by },
      'served a verified answer',
    );
    return { kind: 'answer', answer: verifiedAnswerOf(match.answer) };
  } catch (error) {
    logger.warn(
      { err: error, threadId: request.threadId },
      'could not look up verified answers; answering as usual',
    );
    return undefined;
  }
}

/**
 * The served verified answer joins the thread's history (no model call), so a follow-up in the thread
 * ("and for contractors?") has it as the previous answer. A failure only costs that: it is logged.
 */
export async function rememberVerified(
  graph: { remember(threadId: ThreadId, question: string, answer: string): Promise<void> },
  request: TurnRequest,
  result: TurnResult,
  logger: Logger,
): Promise<void> {
  if (result.kind !== 'answer') return;
  try {
    await graph.remember(request.threadId, request.text, result.answer.body);
  } catch (error) {
    logger.warn(
      { err: error, threadId: request.threadId },
      'could not add the verified answer to the thread history',
    );
  }
}

/** The answer as chats and the CLI show it. */
export function verifiedAnswerOf(verified: VerifiedAnswer): Answer {
  const body = `${verifiedLabel(verified)}\n\n${verified.answer.trim()}`;
  const sources: Source[] = verified.sources.map((source) => ({
    file: source.file,
    docId: source.documentId ?? '',
    pages: source.pages,
  }));
  // Its [n] are kept only where they point at its sources (`turns/verify-answer.ts`).
  const citesByNumber = citesWithin(verified.answer, sources.length);
  return {
    id: randomUUID(),
    outcome: 'verified',
    markdown: appendSources(body, sources, citesByNumber),
    body,
    sources,
    ...(citesByNumber ? { citesByNumber: true } : {}),
    subQuestions: [],
    contexts: [],
    counts: { toolCalls: 0, promptTokens: 0, completionTokens: 0, llmCalls: 0 },
    verified: { id: verified.id, by: verified.verifiedBy, at: verified.verifiedAt },
  };
}

/** `✅ Verified answer (verified by U123 on 2026-11-30)`. */
export function verifiedLabel(verified: Pick<VerifiedAnswer, 'verifiedBy' | 'verifiedAt'>): string {
  return `✅ Verified answer (verified by ${verified.verifiedBy} on ${verified.verifiedAt.slice(0, 10)})`;
}

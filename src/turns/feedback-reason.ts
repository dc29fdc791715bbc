/**
 * Why a 👎, the same for every platform: the 👎 is stored at once (the reason is optional); the
 * reason the user then picks (and, for "other", their words) updates that same vote — choosing again
 * replaces it. The store keeps one vote per user and answer.
 */
import type { FeedbackStore } from '../core/feedback-store.ts';
import { type FeedbackReason, feedbackReasons, type ThreadId } from '../core/types.ts';

/** Longer comments are cut: the export and the report show them as they are. */
export const maxFeedbackComment = 1_000;

export function parseFeedbackReason(text: string | undefined): FeedbackReason | undefined {
  return feedbackReasons.find((reason) => reason === text);
}

export async function recordFeedbackReason(
  store: Pick<FeedbackStore, 'recordFeedback'>,
  choice: { threadId: ThreadId; answerId: string; user: string; reason: FeedbackReason; comment?: string },
): Promise<void> {
  const comment = choice.comment?.trim().slice(0, maxFeedbackComment);
  await store.recordFeedback({
    threadId: choice.threadId,
    answerId: choice.answerId,
    user: choice.user,
    value: 'down',
    at: new Date().toISOString(),
    reason: choice.reason,
    ...(comment ? { comment } : {}),
  });
}

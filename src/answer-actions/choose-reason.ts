/** A reason picked after a 👎: stored with that vote (`turns/feedback-reason.ts`); "Other…" asks for words first. */
import type { FeedbackReason } from '../core/types.ts';
import { maxFeedbackComment, recordFeedbackReason } from '../turns/feedback-reason.ts';
import {
  feedbackCommentLabel,
  feedbackReasonThanks,
  feedbackReasonTitle,
  formCancelLabel,
  formSendLabel,
} from '../turns/messages-en.ts';
import type { ActionOutcome, AnswerActionContext, AnswerActionRequest, WordsForm } from './answer-action.ts';

export const reasonWordsForm: WordsForm = {
  title: feedbackReasonTitle,
  label: feedbackCommentLabel,
  maxLength: maxFeedbackComment,
  submit: formSendLabel,
  cancel: formCancelLabel,
};

/** "Other…" opens the form without touching the store, so a platform can show it at once. */
export async function chooseReason(
  context: AnswerActionContext,
  request: AnswerActionRequest,
  reason: FeedbackReason,
): Promise<ActionOutcome> {
  if (reason === 'other') return { form: reasonWordsForm };
  await recordFeedbackReason(context.services.coordination, {
    threadId: request.threadId,
    answerId: request.answerId,
    user: request.actor.id,
    reason,
  });
  return { text: feedbackReasonThanks };
}

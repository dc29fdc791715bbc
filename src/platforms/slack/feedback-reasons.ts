/**
 * Why a 👎, in Slack: after the vote is stored, the voter privately gets the reasons as buttons (one
 * click stores it: `turns/feedback-reason.ts`); "Other…" opens a modal (views.open with the click's
 * trigger_id) for their own words. The thread is handed to a person as well (`turns/hand-off.ts`).
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import { threadParts } from '../../core/ids.ts';
import { feedbackReasons, type ThreadId } from '../../core/types.ts';
import { parseFeedbackReason, recordFeedbackReason } from '../../turns/feedback-reason.ts';
import {
  feedbackCommentLabel,
  feedbackReasonLabels,
  feedbackReasonPrompt,
  feedbackReasonThanks,
  feedbackReasonTitle,
} from '../../turns/messages-en.ts';
import { type AnswerAction, handOffThread, readAction, tell } from './answer-actions.ts';
import type { SlackContext } from './slack-context.ts';

const reasonActionPrefix = 'ragent_reason_';
export const reasonModalCallbackId = 'ragent_reason_other';
const commentBlockId = 'ragent_reason_comment';
const commentActionId = 'comment';

export function registerFeedbackReasons(app: App, context: SlackContext): void {
  for (const reason of feedbackReasons) {
    app.action<BlockButtonAction>(`${reasonActionPrefix}${reason}`, async ({ ack, action, body }) => {
      await ack();
      const pressed = readAction(context, body, action.value);
      if (!pressed) return;
      if (reason === 'other') {
        await context.client.views.open({ trigger_id: body.trigger_id, view: reasonModal(pressed) as never });
        return;
      }
      context.turns.track('recording a 👎 reason', async () => {
        await recordFeedbackReason(context.services.coordination, { ...pressed, reason });
        await tell(context, pressed, feedbackReasonThanks);
      });
    });
  }
  app.view(reasonModalCallbackId, async ({ ack, view, body }) => {
    await ack();
    const origin = parseMetadata(view.private_metadata);
    const team = body.team?.id ?? body.user.team_id ?? '';
    if (!origin || threadParts(origin.threadId, 'slack', 3)?.[0] !== team) return;
    const comment = (view.state.values[commentBlockId]?.[commentActionId] as { value?: string | null })
      ?.value;
    context.turns.track('recording a 👎 reason', () =>
      recordFeedbackReason(context.services.coordination, {
        threadId: origin.threadId,
        answerId: origin.answerId,
        user: body.user.id,
        reason: parseFeedbackReason('other') ?? 'other',
        ...(comment ? { comment } : {}),
      }),
    );
  });
}

/**
 * After a 👎 was stored: the reason chooser, to the voter only, and the thread handed to a person.
 * Called by the vote's handler instead of its plain thanks.
 */
export async function afterThumbsDown(context: SlackContext, pressed: AnswerAction): Promise<void> {
  const value = JSON.stringify({ threadId: pressed.threadId, answerId: pressed.answerId });
  await context.client.chat.postEphemeral({
    channel: pressed.channel,
    user: pressed.user,
    text: feedbackReasonPrompt,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: feedbackReasonPrompt } },
      {
        type: 'actions',
        block_id: 'ragent_reasons',
        elements: feedbackReasons.map((reason) => ({
          type: 'button',
          action_id: `${reasonActionPrefix}${reason}`,
          text: { type: 'plain_text', text: feedbackReasonLabels[reason] },
          value,
        })),
      },
    ],
    ...(pressed.threadTs ? { thread_ts: pressed.threadTs } : {}),
  });
  await handOffThread(context, pressed, 'thumbs-down');
}

function reasonModal(pressed: AnswerAction): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: reasonModalCallbackId,
    private_metadata: JSON.stringify({ threadId: pressed.threadId, answerId: pressed.answerId }),
    title: { type: 'plain_text', text: feedbackReasonTitle },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: commentBlockId,
        optional: true,
        label: { type: 'plain_text', text: feedbackCommentLabel },
        element: { type: 'plain_text_input', action_id: commentActionId, multiline: true, max_length: 1_000 },
      },
    ],
  };
}

function parseMetadata(metadata: string): { threadId: ThreadId; answerId: string } | undefined {
  try {
    const parsed = JSON.parse(metadata) as { threadId?: unknown; answerId?: unknown };
    return typeof parsed.threadId === 'string' && typeof parsed.answerId === 'string'
      ? { threadId: parsed.threadId, answerId: parsed.answerId }
      : undefined;
  } catch {
    return undefined;
  }
}

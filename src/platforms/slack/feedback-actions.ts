/**
 * 👍/👎 clicks on an answer — Slack's `feedback_buttons` element (its value says which) or the
 * classic buttons where Slack refused the element (their action id says which): acknowledged at
 * once, stored with the thread and answer ids, and confirmed privately to the person who clicked.
 */
import type { App, BlockAction, BlockButtonAction, FeedbackButtonsAction } from '@slack/bolt';
import { threadParts } from '../../core/ids.ts';
import { feedbackThanksText } from '../../turns/messages-en.ts';
import { readAction } from './answer-actions.ts';
import { afterThumbsDown } from './feedback-reasons.ts';
import { type FeedbackValue, feedbackActionIds, feedbackElementActionId } from './render-answer.ts';
import type { SlackContext } from './slack-context.ts';

type Vote = 'up' | 'down';

export function registerFeedbackActions(app: App, context: SlackContext): void {
  for (const [vote, actionId] of Object.entries(feedbackActionIds) as Array<[Vote, string]>) {
    app.action<BlockButtonAction>(actionId, async ({ ack, action, body }) => {
      await ack();
      recordVote(context, body, actionId, action.value, () => vote);
    });
  }
  app.action<BlockAction<FeedbackButtonsAction>>(feedbackElementActionId, async ({ ack, action, body }) => {
    await ack();
    recordVote(context, body, feedbackElementActionId, action.value, (parsed) => parsed.vote);
  });
}

function recordVote(
  context: SlackContext,
  body: BlockAction,
  actionId: string,
  raw: string | undefined,
  voteOf: (parsed: FeedbackValue) => unknown,
): void {
  const team = body.team?.id ?? body.user.team_id ?? '';
  let parsed: FeedbackValue;
  try {
    parsed = JSON.parse(raw ?? '') as FeedbackValue;
  } catch {
    context.logger.warn({ actionId }, 'feedback with an unreadable value ignored');
    return;
  }
  const value = voteOf(parsed);
  if (value !== 'up' && value !== 'down') {
    context.logger.warn({ actionId }, 'feedback without a vote ignored');
    return;
  }
  // The ids come from our own message, but only accept feedback for this workspace's threads.
  if (
    typeof parsed.threadId !== 'string' ||
    threadParts(parsed.threadId, 'slack', 3)?.[0] !== team ||
    !parsed.answerId
  ) {
    context.logger.warn({ actionId, team }, 'feedback for another workspace ignored');
    return;
  }
  const { threadId, answerId } = parsed;
  const channel = body.channel?.id ?? body.container?.channel_id;
  const threadTs = (body.message as { thread_ts?: string } | undefined)?.thread_ts;
  context.turns.track('recording feedback', async () => {
    await context.services.coordination.recordFeedback({
      threadId,
      answerId,
      user: body.user.id,
      value,
      at: new Date().toISOString(),
    });
    context.logger.info({ threadId, answerId, value }, 'feedback recorded');
    // A 👎 asks why (and hands the thread to a person) instead of only thanking.
    const pressed = value === 'down' ? readAction(context, body, raw) : undefined;
    if (pressed) return afterThumbsDown(context, pressed);
    if (!channel) return;
    await context.client.chat
      .postEphemeral({
        channel,
        user: body.user.id,
        text: feedbackThanksText(value),
        ...(threadTs ? { thread_ts: threadTs } : {}),
      })
      .catch((error: unknown) => context.logger.debug({ err: error }, 'could not confirm the feedback'));
  });
}

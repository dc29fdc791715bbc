/**
 * 👍/👎 clicks on an answer: acknowledged at once, stored with the thread and answer ids, and
 * confirmed privately to the person who clicked.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import { feedbackThanksText } from '../../turns/messages-en.ts';
import { type FeedbackValue, feedbackActionIds } from './render-answer.ts';
import type { SlackContext } from './slack-context.ts';

export function registerFeedbackActions(app: App, context: SlackContext): void {
  for (const [value, actionId] of Object.entries(feedbackActionIds) as Array<['up' | 'down', string]>) {
    app.action<BlockButtonAction>(actionId, async ({ ack, action, body }) => {
      await ack();
      const team = body.team?.id ?? body.user.team_id ?? '';
      let parsed: FeedbackValue;
      try {
        parsed = JSON.parse(action.value ?? '') as FeedbackValue;
      } catch {
        context.logger.warn({ actionId }, 'feedback with an unreadable value ignored');
        return;
      }
      // The ids come from our own message, but only accept feedback for this workspace's threads.
      if (
        typeof parsed.threadId !== 'string' ||
        !parsed.threadId.startsWith(`slack:${team}:`) ||
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
    });
  }
}

/**
 * 👍/👎 clicks on an answer: acknowledged at once, stored with the thread and answer ids, and
 * confirmed privately to the person who clicked.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
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
      context.services.botState.recordFeedback({
        threadId: parsed.threadId,
        answerId: parsed.answerId,
        user: body.user.id,
        value,
        at: new Date().toISOString(),
      });
      context.logger.info(
        { threadId: parsed.threadId, answerId: parsed.answerId, value },
        'feedback recorded',
      );
      const channel = body.channel?.id ?? body.container?.channel_id;
      if (!channel) return;
      const threadTs = (body.message as { thread_ts?: string } | undefined)?.thread_ts;
      context.work.run(
        async () => {
          await context.client.chat.postEphemeral({
            channel,
            user: body.user.id,
            text:
              value === 'up'
                ? 'Thanks — glad it helped.'
                : 'Thanks — noted. Rephrasing the question often helps.',
            ...(threadTs ? { thread_ts: threadTs } : {}),
          });
        },
        (error) => context.logger.debug({ err: error }, 'could not confirm the feedback'),
      );
    });
  }
}

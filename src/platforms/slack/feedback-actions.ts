/**
 * 👍/👎 on an answer (`answer-actions/vote.ts`): Slack's `feedback_buttons` element (its value says
 * which) or the classic buttons where Slack refused the element (their action id says which).
 */
import type { App, BlockAction } from '@slack/bolt';
import { actionValue } from '../../answer-actions/answer-buttons.ts';
import { vote } from '../../answer-actions/vote.ts';
import { slackActionId } from './answer-action-buttons.ts';
import { readPress, type SlackPress, showOutcome, slackActionContext } from './answer-actions.ts';
import { feedbackElementActionId } from './render-answer.ts';
import type { SlackContext } from './slack-context.ts';

type Click = { ack: () => Promise<void>; action: { value?: string }; body: BlockAction };

export function registerFeedbackActions(app: App, context: SlackContext): void {
  const actions = slackActionContext(context);
  const onVote =
    (voteOf: (press: SlackPress) => unknown) =>
    async ({ ack, action, body }: Click) => {
      await ack();
      const press = readPress(context, body, action.value);
      const choice = press && voteOf(press);
      if (!press || (choice !== 'up' && choice !== 'down')) {
        context.logger.warn('feedback without a vote ignored');
        return;
      }
      const value = actionValue(press.request);
      context.turns.track('recording feedback', async () =>
        showOutcome(context, press, await vote(actions, press.request, { vote: choice, value })),
      );
    };
  app.action(slackActionId('vote:up'), onVote(() => 'up') as never);
  app.action(slackActionId('vote:down'), onVote(() => 'down') as never);
  app.action(feedbackElementActionId, onVote((press) => press.vote) as never);
}

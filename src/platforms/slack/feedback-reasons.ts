/** A 👎's "Other…" in Slack: the core's words form as a modal, and its submission (`answer-actions/give-reason-words.ts`). */
import type { App } from '@slack/bolt';
import { parseActionValue } from '../../answer-actions/answer-buttons.ts';
import { giveReasonWords } from '../../answer-actions/give-reason-words.ts';
import { threadParts } from '../../core/ids.ts';
import { commentActionId, commentBlockId, reasonModalCallbackId } from './answer-action-buttons.ts';
import { slackActionContext } from './answer-actions.ts';
import { slackActor } from './slack-admins.ts';
import type { SlackContext } from './slack-context.ts';

export function registerFeedbackReasons(app: App, context: SlackContext): void {
  app.view(reasonModalCallbackId, async ({ ack, view, body }) => {
    await ack();
    const ids = parseActionValue(view.private_metadata);
    const team = body.team?.id ?? body.user.team_id ?? '';
    if (!ids || threadParts(ids.threadId, 'slack', 3)?.[0] !== team) return;
    const words = (view.state.values[commentBlockId]?.[commentActionId] as { value?: string | null })?.value;
    const actor = slackActor(context, body.user);
    context.turns.track('recording a 👎 reason', async () => {
      await giveReasonWords(slackActionContext(context), { actor, ...ids }, words ?? undefined);
    });
  });
}

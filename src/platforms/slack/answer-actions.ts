/**
 * Slack's side of the buttons on an answer (`answer-actions/`: 👍/👎, Verify, Ask a person, the 👎
 * reasons and their words form): acknowledged at once, read from Slack's payload — a button's ids are
 * trusted by the core only for this workspace and the channel of their thread (`handle-press.ts`) —
 * and the outcome shown: privately in the thread, as a modal, or as "✅ Verified by <name>".
 */
import type { App, BlockAction, BlockButtonAction } from '@slack/bolt';
import { everyAction } from '../../answer-actions/action-wire-names.ts';
import type { ActionButton, ActionIds } from '../../answer-actions/answer-buttons.ts';
import type { OutcomeView } from '../../answer-actions/answer-press.ts';
import { submitReasonWords } from '../../answer-actions/give-reason-words.ts';
import { handlePress } from '../../answer-actions/handle-press.ts';
import { platformActionContext } from '../../answer-actions/platform-action-context.ts';
import type { Actor } from '../../turns/actor.ts';
import { verifiedByText } from '../../turns/messages-en.ts';
import {
  commentActionId,
  commentBlockId,
  feedbackElementActionId,
  reasonModalCallbackId,
  slackActionId,
  slackButtons,
  wordsModal,
} from './answer-action-buttons.ts';
import { slackActor } from './slack-admins.ts';
import { placeAt, type SlackContext, slackPlaces } from './slack-context.ts';
import { slackMarkup } from './slack-markup.ts';
import { safeMrkdwn } from './slack-text.ts';

type Blocks = Array<Record<string, unknown>>;
type Message = { ts?: string; text?: string; thread_ts?: string; blocks?: Blocks };
/** A Slack thread id's parts: the workspace, the channel, the thread's first message. */
const slackThreads = { platform: 'slack', count: 3 };

export function registerAnswerActions(app: App, context: SlackContext): void {
  const actions = platformActionContext(context.services, context.turns.platform, slackMarkup);
  // Acknowledged already (Slack's `ack`): the core runs the press and what it shows may wait for the store.
  const press = (body: BlockAction, raw: string | undefined, action?: ActionButton['action']) => {
    const team = body.team?.id ?? body.user.team_id ?? '';
    const channel = body.channel?.id ?? body.container?.channel_id ?? '';
    const { id, name, username } = body.user as { id: string; name?: string; username?: string };
    const actor = slackActor(context, { id, name: name ?? username ?? id });
    const ids = { raw, thread: { ...slackThreads, here: [team, channel] } };
    const port = {
      places: slackPlaces,
      place: () => placeAt(team, channel),
      view: (pressed: ActionIds) => slackOutcomeView(context, body, channel, actor, pressed),
    };
    context.turns.track(`answer action ${action ?? 'feedback'}`, () =>
      handlePress(actions, { ...(action ? { action } : {}), ids, actor }, port),
    );
  };
  for (const name of everyAction)
    app.action<BlockButtonAction>(slackActionId(name), async ({ ack, action, body }) => {
      await ack();
      press(body, action.value, name);
    });
  // Slack's feedback element is one action: its value says which vote.
  app.action(feedbackElementActionId, async ({ ack, action, body }) => {
    await ack();
    press(body as BlockAction, (action as { value?: string }).value);
  });
  // A 👎's "Other…": the words form's submission, for a thread of this workspace only.
  app.view(reasonModalCallbackId, async ({ ack, view, body }) => {
    await ack();
    const team = body.team?.id ?? body.user.team_id ?? '';
    const ids = { raw: view.private_metadata, thread: { ...slackThreads, here: [team] } };
    const words = (view.state.values[commentBlockId]?.[commentActionId] as { value?: string | null })?.value;
    const actor = slackActor(context, body.user);
    context.turns.track('recording a 👎 reason', async () => {
      await submitReasonWords(actions, { ids, actor, words: words ?? undefined });
    });
  });
}

/** The outcome shown in Slack: a modal, the answer's blocks updated, or a private message in its thread. */
function slackOutcomeView(
  context: SlackContext,
  body: BlockAction,
  channel: string,
  actor: Actor,
  ids: ActionIds,
): OutcomeView {
  const { client, logger } = context;
  const message = body.message as Message | undefined;
  const threadTs = message?.thread_ts ?? (body.container as Message | undefined)?.thread_ts;
  return {
    openForm: (form) =>
      client.views.open({ trigger_id: body.trigger_id, view: wordsModal(form, ids) as never }),
    markVerified: async (name) => {
      if (!message?.blocks || !message.ts) return;
      // The message's own text stays its notification and accessible text.
      const text = message.text || verifiedByText(name);
      const blocks = verifiedBlocks(message.blocks, name) as never;
      await client.chat
        .update({ channel, ts: message.ts, text, blocks })
        .catch((error: unknown) => logger.warn({ err: error }, 'could not mark the answer verified'));
    },
    tell: (text, buttons) => {
      const reasons = buttons && {
        type: 'actions',
        block_id: 'ragent_reasons',
        elements: slackButtons(buttons),
      };
      const blocks = reasons && [{ type: 'section', text: { type: 'mrkdwn', text } }, reasons];
      const where = { channel, user: actor.id, ...(threadTs ? { thread_ts: threadTs } : {}) };
      return client.chat
        .postEphemeral({ ...where, text, ...(blocks ? { blocks } : {}) })
        .catch((error: unknown) => logger.debug({ err: error }, 'could not tell the person who pressed'));
    },
  };
}

/** The answer's blocks without its Verify button, and a line saying who verified it. */
function verifiedBlocks(blocks: Readonly<Blocks>, name: string): Blocks {
  const unverified = (elements: Blocks) =>
    elements.filter((each) => each.action_id !== slackActionId('verify'));
  const kept = blocks
    .filter((block) => block.block_id !== 'ragent_verified')
    .map((block) =>
      Array.isArray(block.elements) ? { ...block, elements: unverified(block.elements) } : block,
    )
    .filter((block) => !Array.isArray(block.elements) || block.elements.length > 0);
  const line = { type: 'mrkdwn', text: safeMrkdwn(verifiedByText(name)) };
  return [...kept, { type: 'context', block_id: 'ragent_verified', elements: [line] }];
}

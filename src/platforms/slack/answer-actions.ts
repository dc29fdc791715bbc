/**
 * Slack's side of the buttons on an answer (`answer-actions/`: 👍/👎, Verify, Ask a person, the 👎
 * reasons and their words form): acknowledged at once, read into the core's request — a button's ids
 * only trusted for this workspace and the channel of their thread (`answer-press.ts`) — and the
 * outcome shown: privately in the thread, as a modal, or as "✅ Verified by <name>".
 */
import type { App, BlockAction, BlockButtonAction } from '@slack/bolt';
import type { AnswerActionContext, AnswerActionRequest } from '../../answer-actions/answer-action.ts';
import { type ActionButton, answerActionNames, voteActions } from '../../answer-actions/answer-buttons.ts';
import {
  idsPressedHere,
  type OutcomeView,
  pressRequest,
  showActionOutcome,
} from '../../answer-actions/answer-press.ts';
import { giveReasonWords } from '../../answer-actions/give-reason-words.ts';
import { runAnswerAction } from '../../answer-actions/run-answer-action.ts';
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
import { postSlackHandOff } from './hand-off-line.ts';
import { slackActor } from './slack-admins.ts';
import { placeAt, type SlackContext, slackPlaces } from './slack-context.ts';
import { slackThreadLink } from './slack-ids.ts';
import { slackMarkup } from './slack-markup.ts';
import { safeMrkdwn } from './slack-text.ts';

type Blocks = Array<Record<string, unknown>>;
type Message = { ts?: string; text?: string; thread_ts?: string; blocks?: Blocks };
/** The core's request, and the payload it came in (where to show the outcome). */
export type SlackPress = { request: AnswerActionRequest; body: BlockAction; channel: string; vote: unknown };
/** A Slack thread id's parts: the workspace, the channel, the thread's first message. */
const slackThreads = { platform: 'slack', count: 3 };

export function slackActionContext(context: SlackContext): AnswerActionContext {
  const post = postSlackHandOff.bind(null, context.client);
  const handOff = { fallback: context.services.config.slack.handOff, post };
  return { ...context, markup: slackMarkup, platform: 'slack', handOff, threadLink: slackThreadLink };
}

export function registerAnswerActions(app: App, context: SlackContext): void {
  const actions = slackActionContext(context);
  const run = (name: ActionButton['action'], press: SlackPress) =>
    context.turns.track(`answer action ${name}`, async () =>
      showActionOutcome(
        await runAnswerAction(actions, name, press.request),
        slackOutcomeView(context, press),
      ),
    );
  for (const name of [...voteActions, ...answerActionNames])
    app.action<BlockButtonAction>(slackActionId(name), async ({ ack, action, body }) => {
      await ack();
      const press = readPress(context, body, action.value);
      if (press) run(name, press);
    });
  // Slack's feedback element is one action: its value says which vote.
  app.action(feedbackElementActionId, async ({ ack, action, body }) => {
    await ack();
    const press = readPress(context, body as BlockAction, (action as { value?: string }).value);
    if (press?.vote === 'up' || press?.vote === 'down') run(`vote:${press.vote}`, press);
    else context.logger.warn('feedback without a vote ignored');
  });
  // A 👎's "Other…": the words form's submission, for a thread of this workspace only.
  app.view(reasonModalCallbackId, async ({ ack, view, body }) => {
    await ack();
    const team = body.team?.id ?? body.user.team_id ?? '';
    const ids = idsPressedHere(view.private_metadata, { ...slackThreads, here: [team] }, context.logger);
    if (!ids) return;
    const words = (view.state.values[commentBlockId]?.[commentActionId] as { value?: string | null })?.value;
    const actor = slackActor(context, body.user);
    context.turns.track('recording a 👎 reason', async () => {
      await giveReasonWords(actions, { actor, ...ids }, words ?? undefined);
    });
  });
}

/** The press, only when its ids name a thread of this workspace and of the channel it was pressed in. */
export function readPress(
  context: SlackContext,
  body: BlockAction,
  raw: string | undefined,
): SlackPress | undefined {
  const team = body.team?.id ?? body.user.team_id ?? '';
  const channel = body.channel?.id ?? body.container?.channel_id ?? '';
  const ids = idsPressedHere(raw, { ...slackThreads, here: [team, channel] }, context.logger);
  if (!ids) return undefined;
  const { id, name, username } = body.user as { id: string; name?: string; username?: string };
  const actor = slackActor(context, { id, name: name ?? username ?? id });
  const request = pressRequest(slackPlaces, placeAt(team, channel), actor, ids);
  return { request, body, channel, vote: ids.vote };
}

/** The outcome shown in Slack: a modal, the answer's blocks updated, or a private message in its thread. */
function slackOutcomeView(context: SlackContext, press: SlackPress): OutcomeView {
  const { client, logger } = context;
  const { body, channel, request } = press;
  const message = body.message as Message | undefined;
  const threadTs = message?.thread_ts ?? (body.container as Message | undefined)?.thread_ts;
  return {
    openForm: (form) =>
      client.views.open({ trigger_id: body.trigger_id, view: wordsModal(form, request) as never }),
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
      const where = { channel, user: request.actor.id, ...(threadTs ? { thread_ts: threadTs } : {}) };
      return client.chat
        .postEphemeral({ ...where, text, ...(blocks ? { blocks } : {}) })
        .catch((error: unknown) => logger.debug({ err: error }, 'could not tell the person who pressed'));
    },
  };
}

/** The answer's blocks without its Verify button, and a line saying who verified it. */
export function verifiedBlocks(blocks: Readonly<Blocks>, name: string): Blocks {
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

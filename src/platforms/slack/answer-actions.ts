/**
 * Slack's side of the buttons on an answer (`answer-actions/`): acknowledged at once, read into the
 * core's request — a button's ids only trusted for this workspace and the channel of their thread —
 * and the outcome shown: privately in the thread, as a modal, or as "✅ Verified by <name>".
 */
import type { App, BlockAction, BlockButtonAction } from '@slack/bolt';
import type {
  ActionOutcome,
  AnswerActionContext,
  AnswerActionRequest,
} from '../../answer-actions/answer-action.ts';
import { answerActionNames, parseActionValue } from '../../answer-actions/answer-buttons.ts';
import { runAnswerAction } from '../../answer-actions/run-answer-action.ts';
import { threadParts } from '../../core/ids.ts';
import { verifiedByText } from '../../turns/messages-en.ts';
import { slackActionId, slackButtons, wordsModal } from './answer-action-buttons.ts';
import { postSlackHandOff } from './hand-off-line.ts';
import { slackActor } from './slack-admins.ts';
import { channelScope, isDirectMessageChannel, type SlackContext } from './slack-context.ts';
import { slackThreadLink } from './slack-ids.ts';
import { slackMarkup } from './slack-markup.ts';
import { safeMrkdwn } from './slack-text.ts';

type Blocks = Array<Record<string, unknown>>;

export interface SlackPress {
  request: AnswerActionRequest;
  channel: string;
  threadTs?: string | undefined;
  triggerId: string;
  message?: { ts?: string; text?: string; blocks?: Blocks };
  /** Where Slack's feedback element carries the vote in the value. */
  vote?: unknown;
}

export function slackActionContext(context: SlackContext): AnswerActionContext {
  const { services, logger, client } = context;
  const handOff = { fallback: services.config.slack.handOff, post: postSlackHandOff.bind(null, client) };
  return {
    stores: services,
    logger,
    markup: slackMarkup,
    platform: 'slack',
    handOff,
    threadLink: slackThreadLink,
  };
}

export function registerAnswerActions(app: App, context: SlackContext): void {
  const actions = slackActionContext(context);
  for (const name of answerActionNames)
    app.action<BlockButtonAction>(slackActionId(name), async ({ ack, action, body }) => {
      await ack();
      const press = readPress(context, body, action.value);
      if (press)
        context.turns.track(`answer action ${name}`, async () =>
          showOutcome(context, press, await runAnswerAction(actions, name, press.request)),
        );
    });
}

export function readPress(
  context: SlackContext,
  body: BlockAction,
  raw: string | undefined,
): SlackPress | undefined {
  const team = body.team?.id ?? body.user.team_id ?? '';
  const ids = parseActionValue(raw);
  const channel = body.channel?.id ?? body.container?.channel_id;
  const [threadTeam, threadChannel] = ids ? (threadParts(ids.threadId, 'slack', 3) ?? []) : [];
  if (!ids || !channel || threadTeam !== team || threadChannel !== channel) {
    context.logger.warn({ team }, 'an unreadable answer action, or one for another workspace, ignored');
    return undefined;
  }
  const message = body.message as SlackPress['message'] & { thread_ts?: string };
  const user = body.user as { id: string; name?: string; username?: string };
  const { threadId, answerId, vote } = ids;
  const place = isDirectMessageChannel(channel)
    ? { inDirectMessage: true as const }
    : { inDirectMessage: false as const, channelScope: channelScope(team, channel) };
  return {
    request: {
      actor: slackActor(context, { id: user.id, name: user.name ?? user.username ?? user.id }),
      threadId,
      answerId,
      place,
    },
    channel,
    threadTs: message?.thread_ts ?? (body.container as { thread_ts?: string } | undefined)?.thread_ts,
    triggerId: body.trigger_id,
    ...(message ? { message } : {}),
    vote,
  };
}

export async function showOutcome(
  context: SlackContext,
  press: SlackPress,
  outcome: ActionOutcome,
): Promise<void> {
  const { client, logger } = context;
  const { message, channel, threadTs } = press;
  if (outcome.form)
    return void (await client.views.open({
      trigger_id: press.triggerId,
      view: wordsModal(outcome.form, press.request) as never,
    }));
  if (outcome.verifiedBy && message?.blocks && message.ts)
    await client.chat
      // The message's own text stays its notification and accessible text.
      .update({
        channel,
        ts: message.ts,
        text: message.text || verifiedByText(outcome.verifiedBy),
        blocks: verifiedBlocks(message.blocks, outcome.verifiedBy) as never,
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not mark the answer verified'));
  if (!outcome.text) return;
  const blocks = outcome.buttons && [
    { type: 'section', text: { type: 'mrkdwn', text: outcome.text } },
    { type: 'actions', block_id: 'ragent_reasons', elements: slackButtons(outcome.buttons) },
  ];
  await client.chat
    .postEphemeral({
      channel,
      user: press.request.actor.id,
      text: outcome.text,
      ...(blocks ? { blocks } : {}),
      ...(threadTs ? { thread_ts: threadTs } : {}),
    })
    .catch((error: unknown) => logger.debug({ err: error }, 'could not tell the person who pressed'));
}

/** The answer's blocks without its Verify button, and a line saying who verified it. */
export function verifiedBlocks(blocks: Readonly<Blocks>, name: string): Blocks {
  const withoutVerify = (elements: Blocks) =>
    elements.filter((each) => each.action_id !== slackActionId('verify'));
  const kept = blocks
    .filter((block) => block.block_id !== 'ragent_verified')
    .map((block) =>
      Array.isArray(block.elements) ? { ...block, elements: withoutVerify(block.elements) } : block,
    )
    .filter((block) => !Array.isArray(block.elements) || block.elements.length > 0);
  const line = { type: 'mrkdwn', text: safeMrkdwn(verifiedByText(name)) };
  return [...kept, { type: 'context', block_id: 'ragent_verified', elements: [line] }];
}

/**
 * Slack's side of the buttons on an answer (`answer-actions/`): each is acknowledged at once, its
 * signed payload read into the core's request — the ids in a button's value only trusted for this
 * workspace and the channel of their thread — and the outcome shown: privately to the presser
 * (postEphemeral in the thread), a form (views.open), or the answer marked "✅ Verified by <name>".
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
import { channelScope, isDirectMessageChannel, placeScopes, type SlackContext } from './slack-context.ts';
import { slackThreadLink } from './slack-ids.ts';
import { slackMarkup } from './slack-markup.ts';
import { safeMrkdwn } from './slack-text.ts';

/** A press read from Slack's payload: the core's request, and where to show its outcome. */
export interface SlackPress {
  request: AnswerActionRequest;
  channel: string;
  threadTs?: string;
  triggerId: string;
  message?: { ts?: string; text?: string; blocks?: Array<Record<string, unknown>> };
  /** The vote, where Slack's feedback element carries it in the value. */
  vote?: unknown;
}

export function slackActionContext(context: SlackContext): AnswerActionContext {
  return {
    stores: context.services,
    logger: context.logger,
    markup: slackMarkup,
    platform: 'slack',
    handOff: {
      fallback: context.services.config.slack.handOff,
      post: (threadId, target) => postSlackHandOff(context.client, threadId, target),
    },
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

/** The press, when its ids name a thread of this workspace and of the channel it was pressed in. */
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
    context.logger.warn({ team }, 'an answer action for another workspace, or unreadable, ignored');
    return undefined;
  }
  const message = body.message as SlackPress['message'] & { thread_ts?: string };
  const container = body.container as { message_ts?: string; thread_ts?: string } | undefined;
  const ts = message?.ts ?? container?.message_ts;
  const threadTs = message?.thread_ts ?? container?.thread_ts;
  const user = body.user as { id: string; name?: string; username?: string };
  const link = slackThreadLink(ids.threadId);
  return {
    request: {
      actor: slackActor(context, { id: user.id, name: user.name ?? user.username ?? user.id }),
      threadId: ids.threadId,
      answerId: ids.answerId,
      place: isDirectMessageChannel(channel)
        ? { inDirectMessage: true }
        : {
            inDirectMessage: false,
            channelScope: channelScope(team, channel),
            scopes: () => placeScopes(context, team, channel),
            ...(link ? { threadLink: link } : {}),
          },
    },
    channel,
    triggerId: body.trigger_id,
    ...(message || ts ? { message: { ...message, ...(ts ? { ts } : {}) } } : {}),
    ...(threadTs ? { threadTs } : {}),
    vote: ids.vote,
  };
}

export async function showOutcome(
  context: SlackContext,
  press: SlackPress,
  outcome: ActionOutcome,
): Promise<void> {
  const { client, logger } = context;
  if (outcome.form) {
    await client.views.open({
      trigger_id: press.triggerId,
      view: wordsModal(outcome.form, press.request) as never,
    });
    return;
  }
  const { message } = press;
  if (outcome.verifiedBy && message?.blocks && message.ts)
    await client.chat
      .update({
        channel: press.channel,
        ts: message.ts,
        // The message's own text stays its notification and accessible text.
        text: message.text || verifiedByText(outcome.verifiedBy),
        blocks: verifiedBlocks(message.blocks, outcome.verifiedBy) as never,
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'could not mark the answer verified'));
  if (!outcome.text) return;
  await client.chat
    .postEphemeral({
      channel: press.channel,
      user: press.request.actor.id,
      text: outcome.text,
      ...(outcome.buttons
        ? {
            blocks: [
              { type: 'section', text: { type: 'mrkdwn', text: outcome.text } },
              { type: 'actions', block_id: 'ragent_reasons', elements: slackButtons(outcome.buttons) },
            ],
          }
        : {}),
      ...(press.threadTs ? { thread_ts: press.threadTs } : {}),
    })
    .catch((error: unknown) => logger.debug({ err: error }, 'could not tell the person who pressed'));
}

/** The answer's blocks without its Verify button, and the line saying who verified it. */
export function verifiedBlocks(
  blocks: ReadonlyArray<Record<string, unknown>>,
  name: string,
): Array<Record<string, unknown>> {
  const kept = blocks
    .filter((block) => block.block_id !== 'ragent_verified')
    .map((block) =>
      Array.isArray(block.elements)
        ? {
            ...block,
            elements: (block.elements as Array<Record<string, unknown>>).filter(
              (element) => element.action_id !== slackActionId('verify'),
            ),
          }
        : block,
    )
    .filter((block) => !Array.isArray(block.elements) || block.elements.length > 0);
  return [
    ...kept,
    {
      type: 'context',
      block_id: 'ragent_verified',
      elements: [{ type: 'mrkdwn', text: safeMrkdwn(verifiedByText(name)) }],
    },
  ];
}

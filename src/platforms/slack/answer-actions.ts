/**
 * The actions on an answer besides the vote itself: "Verify" (workspace admins or RAGENT_ADMINS; the
 * answer becomes a verified answer of this channel's set and shows "✅ Verified by <name>"), "Ask a
 * person" (hands the thread off: `turns/hand-off.ts`); what a 👎 opens is `feedback-reasons.ts`.
 * Every action is acknowledged at once; the ids in a button's value are only trusted for this
 * workspace and the channel of their thread.
 */
import type { App, BlockAction, BlockButtonAction } from '@slack/bolt';
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';
import { toRagentError } from '../../errors.ts';
import { type HandOffReason, handOff, handOffOutcomeText } from '../../turns/hand-off.ts';
import {
  verifiedByText,
  verifiedConfirmText,
  verifyDeniedText,
  verifyInDirectMessageText,
  verifyUnknownText,
} from '../../turns/messages-en.ts';
import { verifyAnswer } from '../../turns/verify-answer.ts';
import { answerActionIds } from './answer-action-buttons.ts';
import { postSlackHandOff } from './hand-off-line.ts';
import type { FeedbackValue } from './render-answer.ts';
import { slackTerms } from './render-reply.ts';
import { isWorkspaceAdmin } from './slack-admins.ts';
import { channelScope, isDirectMessageChannel, placeScopes, type SlackContext } from './slack-context.ts';
import { slackThreadLink } from './slack-ids.ts';
import { safeMrkdwn } from './slack-text.ts';

/** Where an action on an answer came from, read from Slack's signed payload. */
export interface AnswerAction {
  team: string;
  user: string;
  /** The user's Slack name, shown (never as a mention). */
  userName: string;
  channel: string;
  threadId: ThreadId;
  answerId: string;
  messageTs?: string;
  threadTs?: string;
}

export function registerAnswerActions(app: App, context: SlackContext): void {
  app.action<BlockButtonAction>(answerActionIds.verify, async ({ ack, action, body }) => {
    await ack();
    const pressed = readAction(context, body, action.value);
    if (pressed)
      context.turns.track('verifying an answer', () =>
        verify(context, body, pressed).catch(async (error: unknown) => {
          context.logger.warn({ err: error }, 'could not verify the answer');
          await tell(context, pressed, `:warning: ${safeMrkdwn(toRagentError(error).message)}`);
        }),
      );
  });
  app.action<BlockButtonAction>(answerActionIds.askPerson, async ({ ack, action, body }) => {
    await ack();
    const pressed = readAction(context, body, action.value);
    if (pressed)
      context.turns.track('handing off', async () => {
        const outcome = await handOffThread(context, pressed, 'asked');
        await tell(context, pressed, handOffOutcomeText(outcome));
      });
  });
}

/** The ids of an answer's button, checked against the workspace the signed payload came from. */
export function readAction(
  context: SlackContext,
  body: BlockAction,
  raw: string | undefined,
): AnswerAction | undefined {
  const team = body.team?.id ?? body.user.team_id ?? '';
  let parsed: Partial<FeedbackValue>;
  try {
    parsed = JSON.parse(raw ?? '') as Partial<FeedbackValue>;
  } catch {
    context.logger.warn('an answer action with an unreadable value ignored');
    return undefined;
  }
  const channel = body.channel?.id ?? body.container?.channel_id;
  // The thread must be of this workspace and of the channel the button was pressed in.
  const [threadTeam, threadChannel] =
    typeof parsed.threadId === 'string' ? (threadParts(parsed.threadId, 'slack', 3) ?? []) : [];
  if (
    typeof parsed.threadId !== 'string' ||
    typeof parsed.answerId !== 'string' ||
    !channel ||
    threadTeam !== team ||
    threadChannel !== channel
  ) {
    context.logger.warn({ team }, 'an answer action for another workspace ignored');
    return undefined;
  }
  const message = body.message as { ts?: string; thread_ts?: string } | undefined;
  const messageTs = message?.ts ?? (body.container as { message_ts?: string } | undefined)?.message_ts;
  const threadTs = message?.thread_ts ?? (body.container as { thread_ts?: string } | undefined)?.thread_ts;
  const user = body.user as { id: string; name?: string; username?: string };
  return {
    team,
    user: user.id,
    userName: user.name ?? user.username ?? user.id,
    channel,
    threadId: parsed.threadId,
    answerId: parsed.answerId,
    ...(messageTs ? { messageTs } : {}),
    ...(threadTs ? { threadTs } : {}),
  };
}

async function verify(context: SlackContext, body: BlockAction, pressed: AnswerAction): Promise<void> {
  if (isDirectMessageChannel(pressed.channel)) return tell(context, pressed, verifyInDirectMessageText);
  if (!(await isWorkspaceAdmin(context, pressed.user)))
    return tell(context, pressed, `:warning: ${verifyDeniedText(slackTerms.admin)}`);
  const outcome = await verifyAnswer(
    { feedback: context.services.coordination, verifiedAnswers: context.services.verifiedAnswers },
    {
      answerId: pressed.answerId,
      threadId: pressed.threadId,
      scope: channelScope(pressed.team, pressed.channel),
      by: pressed.user,
    },
  );
  if (outcome.kind === 'unknown') return tell(context, pressed, verifyUnknownText);
  context.logger.info({ verifiedAnswer: outcome.answer.id, threadId: pressed.threadId }, 'answer verified');
  const message = body.message as { text?: string; blocks?: Array<Record<string, unknown>> } | undefined;
  const blocks = message?.blocks;
  if (blocks && pressed.messageTs) {
    await context.client.chat
      .update({
        channel: pressed.channel,
        ts: pressed.messageTs,
        // The message's own text stays its notification and accessible text.
        text: message?.text || verifiedByText(pressed.userName),
        blocks: verifiedBlocks(blocks, pressed.userName) as never,
      })
      .catch((error: unknown) => context.logger.warn({ err: error }, 'could not mark the answer verified'));
  }
  await tell(context, pressed, verifiedConfirmText);
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
              (element) => element.action_id !== answerActionIds.verify,
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

export async function handOffThread(
  context: SlackContext,
  pressed: AnswerAction,
  why: HandOffReason,
): Promise<Awaited<ReturnType<typeof handOff>>> {
  const { services } = context;
  const [delivered] = await services.coordination.findAnswers([pressed.answerId]).catch(() => []);
  const link = slackThreadLink(pressed.threadId);
  return handOff(
    {
      claims: services.coordination,
      settings: services.coordination,
      turnHistory: services.turnHistory,
      logger: context.logger,
    },
    {
      platform: 'slack',
      threadId: pressed.threadId,
      channel: channelScope(pressed.team, pressed.channel),
      fallback: services.config.slack.handOff,
      scopes: await placeScopes(context, pressed.team, pressed.channel),
      user: pressed.user,
      ...(delivered?.threadId === pressed.threadId ? { question: delivered.question } : {}),
      ...(link ? { link } : {}),
      why,
      post: (target) => postSlackHandOff(context.client, pressed.threadId, target),
    },
  );
}

/** A private line to the person who pressed, in the answer's thread. */
export async function tell(context: SlackContext, pressed: AnswerAction, text: string): Promise<void> {
  await context.client.chat
    .postEphemeral({
      channel: pressed.channel,
      user: pressed.user,
      text,
      ...(pressed.threadTs ? { thread_ts: pressed.threadTs } : {}),
    })
    .catch((error: unknown) => context.logger.debug({ err: error }, 'could not tell the person who pressed'));
}

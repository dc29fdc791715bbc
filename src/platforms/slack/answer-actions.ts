/**
 * The actions on an answer besides the vote itself: "Verify" (workspace admins or RAGENT_ADMINS; the
 * answer becomes a verified answer of this channel's set and shows "✅ Verified by <name>"), "Ask a
 * person" (hands the thread off: `turns/hand-off.ts`), and after a 👎 the one-click reason chooser
 * (an ephemeral message with the reasons; "Other…" opens a modal for the user's own words). Every
 * action is acknowledged at once; the ids in a button's value are only trusted for this workspace.
 */
import type { App, BlockAction, BlockButtonAction } from '@slack/bolt';
import { threadParts } from '../../core/ids.ts';
import { feedbackReasons, type ThreadId } from '../../core/types.ts';
import { toRagentError } from '../../errors.ts';
import { parseFeedbackReason, recordFeedbackReason } from '../../turns/feedback-reason.ts';
import { type HandOffReason, handOff } from '../../turns/hand-off.ts';
import {
  feedbackCommentLabel,
  feedbackReasonLabels,
  feedbackReasonPrompt,
  feedbackReasonThanks,
  feedbackReasonTitle,
  handOffAlreadyText,
  handOffAskedText,
  handOffUnsetText,
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
import { channelScope, isDirectMessageChannel, placeScopes, type SlackContext } from './slack-context.ts';
import { slackThreadLink } from './slack-ids.ts';
import { safeMrkdwn } from './slack-text.ts';
import { isWorkspaceAdmin } from './slash-command.ts';

const reasonActionPrefix = 'ragent_reason_';
export const reasonModalCallbackId = 'ragent_reason_other';
const commentBlockId = 'ragent_reason_comment';
const commentActionId = 'comment';

/** Where an action on an answer came from, read from Slack's signed payload. */
interface AnswerAction {
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
        await tell(context, pressed, handOffReply(outcome));
      });
  });
  for (const reason of feedbackReasons) {
    app.action<BlockButtonAction>(`${reasonActionPrefix}${reason}`, async ({ ack, action, body }) => {
      await ack();
      const pressed = readAction(context, body, action.value);
      if (!pressed) return;
      if (reason === 'other') {
        await context.client.views.open({ trigger_id: body.trigger_id, view: reasonModal(pressed) as never });
        return;
      }
      context.turns.track('recording a 👎 reason', async () => {
        await recordFeedbackReason(context.services.coordination, { ...pressed, reason });
        await tell(context, pressed, feedbackReasonThanks);
      });
    });
  }
  app.view(reasonModalCallbackId, async ({ ack, view, body }) => {
    await ack();
    const origin = parseMetadata(view.private_metadata);
    const team = body.team?.id ?? body.user.team_id ?? '';
    if (!origin || threadParts(origin.threadId, 'slack', 3)?.[0] !== team) return;
    const comment = (view.state.values[commentBlockId]?.[commentActionId] as { value?: string | null })
      ?.value;
    context.turns.track('recording a 👎 reason', () =>
      recordFeedbackReason(context.services.coordination, {
        threadId: origin.threadId,
        answerId: origin.answerId,
        user: body.user.id,
        reason: parseFeedbackReason('other') ?? 'other',
        ...(comment ? { comment } : {}),
      }),
    );
  });
}

/**
 * After a 👎 was stored: the reason chooser, to the voter only, and the thread handed to a person.
 * Called by the vote's handler instead of its plain thanks.
 */
export async function afterThumbsDown(context: SlackContext, pressed: AnswerAction): Promise<void> {
  const value = JSON.stringify({ threadId: pressed.threadId, answerId: pressed.answerId });
  await context.client.chat.postEphemeral({
    channel: pressed.channel,
    user: pressed.user,
    text: feedbackReasonPrompt,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: feedbackReasonPrompt } },
      {
        type: 'actions',
        block_id: 'ragent_reasons',
        elements: feedbackReasons.map((reason) => ({
          type: 'button',
          action_id: `${reasonActionPrefix}${reason}`,
          text: { type: 'plain_text', text: feedbackReasonLabels[reason] },
          value,
        })),
      },
    ],
    ...(pressed.threadTs ? { thread_ts: pressed.threadTs } : {}),
  });
  await handOffThread(context, pressed, 'thumbs-down');
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

async function handOffThread(
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

function handOffReply(outcome: Awaited<ReturnType<typeof handOff>>): string {
  switch (outcome.kind) {
    case 'handed-off':
      return handOffAskedText;
    case 'already':
      return handOffAlreadyText;
    case 'no-target':
      return handOffUnsetText;
  }
}

/** A private line to the person who pressed, in the answer's thread. */
async function tell(context: SlackContext, pressed: AnswerAction, text: string): Promise<void> {
  await context.client.chat
    .postEphemeral({
      channel: pressed.channel,
      user: pressed.user,
      text,
      ...(pressed.threadTs ? { thread_ts: pressed.threadTs } : {}),
    })
    .catch((error: unknown) => context.logger.debug({ err: error }, 'could not tell the person who pressed'));
}

function reasonModal(pressed: AnswerAction): Record<string, unknown> {
  return {
    type: 'modal',
    callback_id: reasonModalCallbackId,
    private_metadata: JSON.stringify({ threadId: pressed.threadId, answerId: pressed.answerId }),
    title: { type: 'plain_text', text: feedbackReasonTitle },
    submit: { type: 'plain_text', text: 'Send' },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [
      {
        type: 'input',
        block_id: commentBlockId,
        optional: true,
        label: { type: 'plain_text', text: feedbackCommentLabel },
        element: { type: 'plain_text_input', action_id: commentActionId, multiline: true, max_length: 1_000 },
      },
    ],
  };
}

function parseMetadata(metadata: string): { threadId: ThreadId; answerId: string } | undefined {
  try {
    const parsed = JSON.parse(metadata) as { threadId?: unknown; answerId?: unknown };
    return typeof parsed.threadId === 'string' && typeof parsed.answerId === 'string'
      ? { threadId: parsed.threadId, answerId: parsed.answerId }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a private answer (`/ragent ask`) shows on Slack, for the core's private surface
 * (`replies/private-surface.ts`): the command's `response_url` (the reply replaces the ephemeral
 * "working…" it answered with; it takes five posts in 30 minutes, so the status is not edited), else
 * `chat.postEphemeral` to the asker where the URL no longer works or the turn was recorded before a
 * restart — never the channel.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import type { Location, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { privateSurface } from '../../replies/private-surface.ts';
import { answerBelowText, privateWorkingText } from '../../turns/messages-en.ts';
import { renderReply, renderStatus } from './render-reply.ts';
import { type SlackMessage, slackErrorCode, truncateText } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

/** The Share button's action (its value: the answer's id). */
export const shareActionId = 'ragent_share';

/** The asker, and the command's `response_url` (through Bolt; none for a recorded turn). */
type Where = { teamId: string; channel: string; user: string; respond?: RespondFn };
type Surfaces = { client: webApi.WebClient; logger: Logger };

/** Posts the ephemeral "working…" and returns the surface whose reply replaces it. */
export async function openPrivateSurface(surfaces: Surfaces, where: Where) {
  const working = renderStatus({ kind: 'working', line: privateWorkingText });
  // Until a first message stands through the response_url, there is nothing to replace.
  return slackPrivateSurface(surfaces, where, await sendPrivately(surfaces, where, working, false));
}

/** A recorded private turn (a crash, a stop): the asker is told ephemerally in the channel. */
export function reopenPrivateTurn(surfaces: Surfaces, turn: TurnInFlight): ReplySurface {
  const { teamId = '', channel, privateTo } = turn.location;
  if (!channel || !privateTo) throw new Error('the recorded private turn has no channel or asker');
  return slackPrivateSurface(surfaces, { teamId, channel, user: privateTo }, false);
}

/** What is recorded with a private turn: where the asker is (never the `response_url`). */
export function privateLocation(where: Where): Location {
  return { teamId: where.teamId, channel: where.channel, privateTo: where.user };
}

/**
 * Nothing is edited (the response_url takes five posts in 30 minutes, so the status is not shown):
 * the reply's first message replaces the "working…" one, once.
 */
function slackPrivateSurface(surfaces: Surfaces, where: Where, replaceable: boolean) {
  return privateSurface<SlackMessage>({
    logger: surfaces.logger,
    location: () => privateLocation(where),
    post: async (message, index) => {
      await sendPrivately(surfaces, where, message, replaceable && index === 0);
      if (index === 0) replaceable = false;
      return '';
    },
    edit: async () => {
      throw new Error('a private message is not edited on Slack');
    },
    delete: async () => {},
    render: {
      status: renderStatus,
      streamingText: () => [],
      // Like any reply, with the classic 👍/👎 buttons, which every ephemeral surface takes.
      reply: (reply) =>
        renderReply(reply).map(({ text, blocks, fallbackBlocks }) => ({
          text,
          blocks: fallbackBlocks ?? blocks,
        })),
      leftoverNote: { text: answerBelowText },
    },
    withExtras: ({ text, blocks = [] }, { footer, share }) => ({
      text,
      blocks: [
        ...blocks,
        ...(share ? [shareButton(share.label, share.answerId)] : []),
        ...(footer ? [contextBlock(`_${safeMrkdwn(footer)}_`)] : []),
      ],
    }),
  });
}

/**
 * Sends `message` to the asker only: through the `response_url` (replacing the message it answered
 * with, if `replace`), else by `chat.postEphemeral`. True when it went through the `response_url`.
 */
async function sendPrivately(surfaces: Surfaces, where: Where, message: SlackMessage, replace: boolean) {
  const blocks = message.blocks?.length ? { blocks: message.blocks as never } : {};
  const shown = { text: truncateText(message.text), ...blocks };
  const sent = await where
    .respond?.({ response_type: 'ephemeral', replace_original: replace, ...shown })
    .then(
      () => true,
      // Not `err`: the failed request's URL is the response_url, a credential of sorts.
      (error: unknown) =>
        surfaces.logger.info({ status: statusOf(error) }, 'the response_url did not take it'),
    );
  if (sent) return true;
  await surfaces.client.chat
    .postEphemeral({ channel: where.channel, user: where.user, ...shown })
    .catch((error: unknown) => {
      surfaces.logger.warn({ code: slackErrorCode(error) }, 'could not post the private reply');
      throw error;
    });
  return false;
}

function shareButton(label: string, answerId: string): Record<string, unknown> {
  const button = { type: 'button', action_id: shareActionId, text: { type: 'plain_text', text: label } };
  return {
    type: 'actions',
    block_id: shareActionId,
    elements: [{ ...button, style: 'primary', value: answerId }],
  };
}

export function contextBlock(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

function statusOf(error: unknown): number | undefined {
  return (error as { response?: { status?: number } }).response?.status;
}

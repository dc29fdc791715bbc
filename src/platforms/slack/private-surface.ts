/**
 * Where a private answer (`/ragent ask`) shows on Slack, for the core's private surface
 * (`replies/private-surface.ts`): the command's `response_url` (the reply replaces the ephemeral
 * "working…" it answered with; it takes five posts in 30 minutes, so the status is not edited), else
 * `chat.postEphemeral` to the asker where the URL no longer works or the turn was recorded before a
 * restart — never the channel.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import { wireName } from '../../answer-actions/action-wire-names.ts';
import type { ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import {
  type PrivateRendering,
  type PrivateReplyPort,
  privateSurface,
  type ShareButton,
} from '../../replies/private-surface.ts';
import { slackSpelling } from './answer-action-buttons.ts';
import { renderReply, renderStatus } from './render-reply.ts';
import { type SlackMessage, simplerMessage, truncateText } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

/** The Share button's action (its value: the answer's id). */
export const shareActionId = wireName('share', slackSpelling);

/** The asker, and the command's `response_url` (through Bolt; none for a recorded turn). */
type Where = { teamId: string; channel: string; user: string; respond?: RespondFn };
type Surfaces = { client: webApi.WebClient; logger: Logger };

/** A recorded private turn (a crash, a stop): the asker is told ephemerally in the channel. */
export function reopenPrivateTurn(surfaces: Surfaces, turn: TurnInFlight): ReplySurface {
  const { teamId = '', channel, privateTo } = turn.location;
  if (!channel || !privateTo) throw new Error('the recorded private turn has no channel or asker');
  const where = { teamId, channel, user: privateTo };
  return privateSurface(privatePort(surfaces, where), { recorded: true });
}

/**
 * A private reply: like any reply, in its simpler form at once — the classic 👍/👎 buttons, which
 * every ephemeral surface takes.
 */
const privateRendering: PrivateRendering<SlackMessage> = {
  status: renderStatus,
  reply: (reply) => renderReply(reply).map((message) => simplerMessage(message) ?? message),
  notice: (text) => ({ text: safeMrkdwn(text) }),
  withSmallPrint: (message, note) => withBlock(message, contextBlock(`_${safeMrkdwn(note)}_`)),
  withButtonRow: (message, share) => withBlock(message, shareRow(share)),
};

/** The `response_url` (five posts in 30 minutes, so nothing is edited), else `chat.postEphemeral`. */
export function privatePort(surfaces: Surfaces, where: Where): PrivateReplyPort<SlackMessage> {
  return {
    logger: surfaces.logger,
    // What is recorded with a private turn: where the asker is (never the `response_url`).
    location: () => ({ teamId: where.teamId, channel: where.channel, privateTo: where.user }),
    render: privateRendering,
    reply: async (message, replace) => {
      await where.respond?.(ephemeral(message, replace));
      return where.respond !== undefined;
    },
    post: (message) =>
      surfaces.client.chat.postEphemeral({
        channel: where.channel,
        user: where.user,
        ...shown(message),
      }),
  };
}

/** `message` through a `response_url`: shown to the asker alone, in place of the message it answers where `replace`. */
function ephemeral(message: SlackMessage, replace: boolean) {
  return { response_type: 'ephemeral', replace_original: replace, ...shown(message) } as const;
}

/** What a private message shows: its text and blocks (neither way takes the fallback blocks). */
function shown({ text, blocks }: SlackMessage) {
  return { text: truncateText(text), ...(blocks?.length ? { blocks: blocks as never } : {}) };
}

/** `message` with `block` added under its blocks. */
function withBlock({ text, blocks = [] }: SlackMessage, block: Record<string, unknown>): SlackMessage {
  return { text, blocks: [...blocks, block] };
}

/** Share's block and action ids are both `ragent_share`; its value is the answer's id. */
function shareRow({ label, answerId }: ShareButton): Record<string, unknown> {
  const button = { type: 'button', action_id: shareActionId, text: { type: 'plain_text', text: label } };
  return {
    type: 'actions',
    block_id: shareActionId,
    elements: [{ ...button, style: 'primary', value: answerId }],
  };
}

function contextBlock(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

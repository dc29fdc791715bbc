/**
 * Where a private answer (`/ragent ask`) shows, on Slack: only to the asker. The status is an
 * ephemeral "working…" posted through the command's `response_url`; the reply replaces it through the
 * same URL (`replace_original`, which Slack supports for the ephemeral message a command answered
 * with; a `response_url` takes five posts within 30 minutes, so the status is not edited while the
 * answer is worked on). Where the URL no longer works (expired, used up), the reply goes by
 * `chat.postEphemeral` to the asker in the channel. An answer carries its sources, 👍/👎 and a Share
 * button; a recorded private turn (`reopen`) is told the same way, ephemerally, never in the channel.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import type { Location, Reply, ReplySurface } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { privateWorkingText } from '../../turns/messages-en.ts';
import { privateReplyExtras } from '../../turns/private-ask.ts';
import { renderReply } from './render-reply.ts';
import { type SlackMessage, slackErrorCode, truncateText } from './slack-message.ts';
import { safeMrkdwn } from './slack-text.ts';

/** The Share button's action (its value: the answer's id). */
export const shareActionId = 'ragent_share';

export interface PrivateDestination {
  client: webApi.WebClient;
  logger: Logger;
  teamId: string;
  channel: string;
  user: string;
  /** The command's `response_url`, through Bolt (absent when reopening a recorded turn). */
  respond?: RespondFn;
}

/** What is recorded with a private turn: where the asker is (never the `response_url`). */
export function privateLocation(where: { teamId: string; channel: string; user: string }): Location {
  return { teamId: where.teamId, channel: where.channel, privateTo: where.user };
}

/** Posts the ephemeral "working…" and returns the surface its reply replaces. */
export async function openPrivateSurface(where: PrivateDestination): Promise<ReplySurface> {
  const working = contextMessage(`:hourglass_flowing_sand: _${safeMrkdwn(privateWorkingText)}_`);
  // Until a first message stands, there is nothing to replace.
  let replaceable = await sendPrivately(where, working, false);
  return {
    location: privateLocation(where),
    showStatus: async () => {},
    finish: async (reply: Reply) => {
      for (const message of renderPrivateReply(reply)) {
        await sendPrivately(where, message, replaceable);
        replaceable = false;
      }
    },
  };
}

/** A recorded private turn (a crash, a stop): the asker is told ephemerally in the channel. */
export function reopenPrivateTurn(
  surfaces: { client: webApi.WebClient; logger: Logger },
  turn: TurnInFlight,
): ReplySurface {
  const { teamId = '', channel, privateTo } = turn.location;
  if (!channel || !privateTo) throw new Error('the recorded private turn has no channel or asker');
  const where = { ...surfaces, teamId, channel, user: privateTo };
  return {
    location: turn.location,
    showStatus: async () => {},
    finish: async (reply) => {
      for (const message of renderPrivateReply(reply)) await sendPrivately(where, message, false);
    },
  };
}

/**
 * Sends `message` to the asker only: through the `response_url` (replacing the message it answered
 * with, if `replace`), else by `chat.postEphemeral`. True when it went through the `response_url`
 * (the next message may replace it).
 */
async function sendPrivately(where: PrivateDestination, message: SlackMessage, replace: boolean) {
  const text = truncateText(message.text);
  if (where.respond) {
    try {
      await where.respond({
        response_type: 'ephemeral',
        replace_original: replace,
        text,
        ...(message.blocks ? { blocks: message.blocks as never } : {}),
      });
      return true;
    } catch (error) {
      // Not `err`: the failed request's URL is the response_url, a credential of sorts.
      where.logger.info(
        { status: (error as { response?: { status?: number } }).response?.status },
        'the response_url did not take the private reply; posting it ephemerally',
      );
    }
  }
  await where.client.chat
    .postEphemeral({
      channel: where.channel,
      user: where.user,
      text,
      ...(message.blocks ? { blocks: message.blocks as never } : {}),
    })
    .catch((error: unknown) => {
      where.logger.warn({ code: slackErrorCode(error) }, 'could not post the private reply');
      throw error;
    });
  return false;
}

/**
 * A reply as the asker sees it: rendered like any reply (the classic 👍/👎 buttons, which every
 * ephemeral surface takes), then the core's extras (`privateReplyExtras`): Share, and a note.
 */
export function renderPrivateReply(reply: Reply): SlackMessage[] {
  const messages = renderReply(reply).map(
    (message): SlackMessage => ({
      text: message.text,
      ...(message.fallbackBlocks || message.blocks
        ? { blocks: [...(message.fallbackBlocks ?? message.blocks ?? [])] }
        : {}),
    }),
  );
  const last = messages.at(-1);
  const { footer, share } = privateReplyExtras(reply);
  if (!last || (!footer && !share)) return messages;
  last.blocks = [
    ...(last.blocks ?? []),
    ...(share
      ? [
          {
            type: 'actions',
            block_id: shareActionId,
            elements: [
              {
                type: 'button',
                action_id: shareActionId,
                text: { type: 'plain_text', text: share.label },
                style: 'primary',
                value: share.answerId,
              },
            ],
          },
        ]
      : []),
    ...(footer ? [contextBlock(`_${safeMrkdwn(footer)}_`)] : []),
  ];
  return messages;
}

function contextBlock(text: string): Record<string, unknown> {
  return { type: 'context', elements: [{ type: 'mrkdwn', text }] };
}

function contextMessage(text: string): SlackMessage {
  return { text, blocks: [contextBlock(text)] };
}

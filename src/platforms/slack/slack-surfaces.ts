/**
 * Slack's side of the platform port: where a job shows its status and outcome.
 *
 * - An answer shows Slack's assistant thread status (`assistant.threads.setStatus`) where the
 *   workspace allows it — learnt once per channel; turns starting together wait for that one probe —
 *   and otherwise a placeholder message that the answer replaces. The status rotates loading lines
 *   from the catalogue at first, then shows each progress line.
 * - A split question's plan shows as task cards in the answer's stream (`task_update` chunks, `plan`
 *   display mode), which it opens before the text comes; where Slack refuses chunks the text streams alone.
 * - An ingest shows one progress message where the request came from (or, if the bot cannot post
 *   there, in a DM to the user) that becomes the result.
 * - `reopen` reaches a recorded turn again: its placeholder or progress message is replaced by the
 *   notice, or, where that message is gone (or the assistant status stood in for it), the notice is
 *   posted in the thread.
 */
import type { types, webApi } from '@slack/bolt';
import type { ChatPlatform, Location, ReplySurface, Status } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { openFirstReplySurface, openReplySurface } from '../../replies/open-reply-surface.ts';
import type { PlaceRefusals } from '../../replies/place-refusals.ts';
import type { PlanCards } from '../../replies/plan-cards.ts';
import { reopenedSurface } from '../../replies/reopened-surface.ts';
import type { ReplyPort, StatusLinePrimitive, StreamPrimitives } from '../../replies/reply-port.ts';
import { answerBelowText } from '../../turns/messages-en.ts';
import { reopenPrivateTurn } from './private-surface.ts';
import { renderReply, renderStatus, renderStreamingText, showsIngestResult } from './render-reply.ts';
import { slackThreadLink } from './slack-ids.ts';
import {
  postMessage,
  type SlackDestination,
  type SlackMessage,
  simplerMessage,
  slackErrorCode,
  updateMessage,
} from './slack-message.ts';
import { neutralizeMentions } from './slack-text.ts';

type WebClient = webApi.WebClient;

export interface SlackSurfaces {
  client: WebClient;
  logger: Logger;
  /**
   * What Slack refused in which channel, learnt once: the assistant thread status, text streaming
   * (`chat.startStream`), streaming chunks (task cards), the `feedback_buttons` element (its richer form).
   */
  refusals: PlaceRefusals;
}

/** Codes with which Slack refuses `chat.startStream` in a workspace or surface: fall back to `chat.update`. */
const streamingRefusals = new Set([
  'not_allowed',
  'not_allowed_token_type',
  'invalid_arguments',
  'unknown_method',
  'method_deprecated',
  'missing_scope',
  'feature_not_enabled',
  'team_not_allowed',
]);

/** Codes for "the bot cannot post here": an ingest's progress then goes to the user's DM. */
const cannotPost = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

/** How often Slack surfaces may change (`startSlack`'s options; the defaults stay within Slack's limits). */
export interface SlackLimits {
  /** Minimum time between two edits of a status message (default 1,000 ms). */
  statusThrottleMs?: number;
  /** Progress and text edits per minute across all threads (default 30, burst 20; Slack allows chat.update ~50/min). */
  progressEditsPerMinute?: number;
  /** Minimum time between two edits of an answer being written (default 1 s); the edits share the budget above. */
  textIntervalMs?: number;
  /** Appends to Slack's native text streams per minute across all threads (default 80, burst 20; chat.appendStream is Tier 4, 100+/min). */
  streamAppendsPerMinute?: number;
}

export function slackPlatform(surfaces: SlackSurfaces, limits: SlackLimits = {}): ChatPlatform {
  return {
    name: 'slack',
    logger: surfaces.logger,
    statusIntervalMs: limits.statusThrottleMs ?? 1_000,
    textIntervalMs: limits.textIntervalMs ?? 1_000,
    // Slack allows chat.update about 50 times a minute per workspace (Tier 3), and a rate-limited
    // call pauses every other call of the client, answers included. A burst of 20 lets the first
    // text of 20 answers go out at once; rate + burst stays within 50 in any minute at the default 30.
    editBudget: { perMinute: limits.progressEditsPerMinute ?? 30, burst: 20 },
    // chat.appendStream is a method of its own, Tier 4 (100+ a minute per workspace): streamed text
    // (and the chat.startStream that opens it) draws from this budget, apart from chat.update.
    streamBudget: { perMinute: limits.streamAppendsPerMinute ?? 80, burst: 20 },
    budgetPer: 'workspace',
    reopen: async (turn: TurnInFlight) =>
      turn.location.privateTo ? reopenPrivateTurn(surfaces, turn) : reopenSlackTurn(surfaces, turn),
    threadLink: (place) => slackThreadLink(place.threadId),
  };
}

/** The location of an answer turn before its status exists. */
export function slackAnswerLocation(teamId: string, channel: string, threadTs: string): Location {
  return { teamId, channel, threadTs };
}

/** Shows the assistant status where the channel allows it (learnt once), else a placeholder message. */
export function openAnswerSurface(
  surfaces: SlackSurfaces,
  where: { teamId: string; channel: string; threadTs: string; user?: string },
): Promise<ReplySurface> {
  const { teamId, channel, threadTs, user } = where;
  const port = slackPort(surfaces, { channel, threadTs }, slackAnswerLocation(teamId, channel, threadTs), {
    assistant: true,
    ...(user ? { stream: { teamId, userId: user } } : {}),
  });
  return openReplySurface(port);
}

/** The ingest's progress message where it was asked for, or in a DM to the user where the bot cannot post. */
export async function openIngestSurface(
  surfaces: SlackSurfaces,
  destination: SlackDestination,
  user: string,
  first: Status,
): Promise<ReplySurface> {
  const destinations: SlackDestination[] = [destination];
  if (destination.channel !== user) destinations.push({ channel: user });
  const ports = destinations.map((where) =>
    slackPort(
      surfaces,
      where,
      { channel: where.channel, ...(where.threadTs ? { threadTs: where.threadTs } : {}) },
      { key: 'messageTs' },
    ),
  );
  return openFirstReplySurface(ports, first, (error) => cannotPost.has(slackErrorCode(error) ?? ''));
}

function reopenSlackTurn(surfaces: SlackSurfaces, turn: TurnInFlight): ReplySurface {
  const { channel, threadTs } = turn.location;
  if (!channel) throw new Error('the recorded turn has no channel');
  const key = turn.kind === 'ingest' ? 'messageTs' : 'placeholderTs';
  const destination = { channel, ...(threadTs ? { threadTs } : {}) };
  return reopenedSurface(slackPort(surfaces, destination, turn.location, { key }), turn.location[key], (ts) =>
    showsResult(surfaces, channel, ts),
  );
}

/** Whether the message `ts` already shows an ingest's final result, read back from Slack. */
async function showsResult(surfaces: SlackSurfaces, channel: string, ts: string): Promise<boolean> {
  const result = await surfaces.client.conversations.replies({ channel, ts, limit: 1, inclusive: true });
  const message = result.messages?.find((candidate) => candidate.ts === ts);
  return message?.text !== undefined && showsIngestResult(message.text);
}

/**
 * Slack's primitives in a channel or thread: messages (mrkdwn and blocks), the assistant status
 * (`assistant`) and, in a thread with a known recipient (`stream`), its native text stream. The
 * recorded location follows the last message under `key`.
 */
function slackPort(
  surfaces: SlackSurfaces,
  destination: SlackDestination,
  location: Location,
  options: {
    key?: 'placeholderTs' | 'messageTs';
    assistant?: boolean;
    stream?: { teamId: string; userId: string };
  },
): ReplyPort<SlackMessage> {
  const { client, logger, refusals } = surfaces;
  const { channel, threadTs } = destination;
  // Learn where Slack refuses the feedback element (the classic buttons then, at once next time).
  const sending = { onFallbackBlocks: () => refusals.learn('richer-form', channel) };
  return {
    logger,
    post: (message) => postMessage(client, destination, message, sending),
    edit: (ts, message) => updateMessage(client, channel, ts, message, sending),
    delete: async (ts) => {
      await client.chat.delete({ channel, ts });
    },
    render: {
      status: renderStatus,
      streamingText: renderStreamingText,
      reply: renderReply,
      simpler: simplerMessage,
      leftoverNote: {
        text: answerBelowText,
        blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: answerBelowText }] }],
      },
    },
    refusals: { learnt: refusals, place: channel },
    location: (last) => (last ? { ...location, [options.key ?? 'placeholderTs']: last } : location),
    // chat.update, Slack's tightest limit, is left for the reply and later pieces.
    textInNewMessage: threadTs !== undefined,
    ...(options.assistant && threadTs ? { statusLine: assistantStatus(client, channel, threadTs) } : {}),
    ...(options.stream && threadTs
      ? { stream: slackStream(surfaces, channel, threadTs, options.stream) }
      : {}),
  };
}

/**
 * Slack's text streams (`chat.startStream` / `appendStream` / `stopStream`) in a thread, with an
 * answer's plan as task cards (which cards, and when, the core decides). Where Slack refuses
 * streaming, or the cards, the channel is remembered.
 */
function slackStream(
  surfaces: SlackSurfaces,
  channel: string,
  threadTs: string,
  recipient: { teamId: string; userId: string },
): StreamPrimitives<SlackMessage> {
  const { client } = surfaces;
  const opening = {
    channel,
    thread_ts: threadTs,
    recipient_team_id: recipient.teamId,
    recipient_user_id: recipient.userId,
  };
  return {
    refuses: (error) => streamingRefusals.has(slackErrorCode(error) ?? ''),
    safeText: neutralizeMentions,
    start: async (text) => String((await client.chat.startStream({ ...opening, markdown_text: text })).ts),
    append: async (ts, text) => {
      await client.chat.appendStream({ channel, ts, markdown_text: text });
    },
    // An older workspace refuses the chunks: the answer streams its text alone.
    plan: {
      refuses: (error) => slackErrorCode(error) !== undefined,
      start: async (plan) =>
        String(
          (await client.chat.startStream({ ...opening, task_display_mode: 'plan', chunks: planChunks(plan) }))
            .ts,
        ),
      append: async (ts, plan) => {
        await client.chat.appendStream({ channel, ts, chunks: planChunks(plan) });
      },
    },
    // The reply's sources and 👍/👎 go under the stream; the reply then replaces the streamed text
    // with its final form.
    closing: ({ text, blocks }) => {
      const closing = (blocks ?? []).filter((block) => closingBlockTypes.has(String(block.type)));
      return closing.length > 0 ? { text, blocks: closing } : undefined;
    },
    stop: async (ts, closing) => {
      await client.chat.stopStream({
        channel,
        ts,
        ...(closing?.blocks ? { blocks: closing.blocks as never } : {}),
      });
    },
    // Slack refuses blocks it does not know with `invalid_blocks`.
    refusesClosing: (error) => slackErrorCode(error) === 'invalid_blocks',
  };
}

/** An answer's plan as Slack's streaming chunks: its title, and a task card per step. */
function planChunks(plan: PlanCards): types.AnyChunk[] {
  return [
    ...(plan.title ? [{ type: 'plan_update' as const, title: plan.title }] : []),
    ...plan.cards.map(({ id, title, state, output, sources }) => ({
      type: 'task_update' as const,
      id,
      title,
      status: state,
      ...(output ? { output } : {}),
      ...(sources.length > 0
        ? { sources: sources.map((source) => ({ type: 'url' as const, ...source })) }
        : {}),
    })),
  ];
}

/** The blocks of a reply that go under a stopped stream: its sources and its 👍/👎. */
const closingBlockTypes = new Set(['context', 'actions', 'context_actions']);

/** The assistant thread status as the surface's status line, its loading messages rotating under it. */
function assistantStatus(client: WebClient, channel: string, threadTs: string): StatusLinePrimitive {
  return {
    // The longest status the assistant thread shows.
    maxLength: 250,
    show: async (status, loadingMessages) => {
      await client.assistant.threads.setStatus({
        channel_id: channel,
        thread_ts: threadTs,
        status,
        ...(loadingMessages.length > 0 ? { loading_messages: [...loadingMessages] } : {}),
      });
    },
  };
}

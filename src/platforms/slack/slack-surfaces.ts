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
import type { webApi } from '@slack/bolt';
import type {
  ChatPlatform,
  Location,
  PlanStep,
  Reply,
  ReplySurface,
  Status,
} from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { type MessagePrimitives, messageSequence, removeOrNote } from '../../turns/message-sequence.ts';
import { answerBelowText, loadingLines, workingLine } from '../../turns/messages-en.ts';
import { planChunks } from './plan-chunks.ts';
import { reopenPrivateTurn } from './private-surface.ts';
import { renderReply, renderStatus, renderStreamingText, showsIngestResult } from './render-reply.ts';
import { slackThreadLink } from './slack-ids.ts';
import {
  postMessage,
  type SendOptions,
  type SlackDestination,
  type SlackMessage,
  slackErrorCode,
  updateMessage,
} from './slack-message.ts';
import { neutralizeMentions } from './slack-text.ts';

type WebClient = webApi.WebClient;

export interface SlackSurfaces {
  client: WebClient;
  logger: Logger;
  /** Per channel: whether Slack allows the assistant thread status there (learnt once). */
  assistantStatusSupport: Map<string, Promise<boolean>>;
  /** Channels where Slack refused text streaming (`chat.startStream`): answers stream by `chat.update` there. */
  streamingRefused: Set<string>;
  /** Channels where Slack refused the `feedback_buttons` element: answers carry the classic buttons there. */
  feedbackElementRefused: Set<string>;
  /** Channels where Slack refused streaming chunks (task cards): answers stream their text only there. */
  chunksRefused?: Set<string>;
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

export function slackPlatform(
  surfaces: SlackSurfaces,
  options: {
    statusIntervalMs: number;
    editsPerMinute: number;
    textIntervalMs?: number;
    /** Appends to native text streams per minute (default 80). */
    appendsPerMinute?: number;
  },
): ChatPlatform {
  return {
    name: 'slack',
    logger: surfaces.logger,
    statusIntervalMs: options.statusIntervalMs,
    ...(options.textIntervalMs !== undefined ? { textIntervalMs: options.textIntervalMs } : {}),
    // Slack allows chat.update about 50 times a minute per workspace (Tier 3), and a rate-limited
    // call pauses every other call of the client, answers included. A burst of 20 lets the first
    // text of 20 answers go out at once; rate + burst stays within 50 in any minute at the default 30.
    editBudget: { perMinute: options.editsPerMinute, burst: 20 },
    // chat.appendStream is a method of its own, Tier 4 (100+ a minute per workspace): streamed text
    // (and the chat.startStream that opens it) draws from this budget, apart from chat.update.
    streamBudget: { perMinute: options.appendsPerMinute ?? 80, burst: 20 },
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

export async function openAnswerSurface(
  surfaces: SlackSurfaces,
  where: { teamId: string; channel: string; threadTs: string; user?: string },
): Promise<ReplySurface> {
  const stream = where.user ? { teamId: where.teamId, userId: where.user } : undefined;
  const { client, logger, assistantStatusSupport } = surfaces;
  const { channel, threadTs } = where;
  const location = slackAnswerLocation(where.teamId, channel, threadTs);
  const known = assistantStatusSupport.get(channel);
  if (known === undefined || (await known)) {
    const probe = setAssistantStatus(client, channel, threadTs, workingLine.toLowerCase(), loadingLines).then(
      () => true,
      (error: unknown) => {
        logger.debug(
          { code: slackErrorCode(error), channel },
          'assistant status unavailable; using a placeholder',
        );
        return false;
      },
    );
    if (known === undefined) assistantStatusSupport.set(channel, probe);
    if (await probe)
      return messageSurface(surfaces, { channel, threadTs }, location, {
        assistant: true,
        ...(stream ? { stream } : {}),
      });
  }
  const destination = { channel, threadTs };
  const placeholderTs = await postMessage(
    client,
    destination,
    renderStatus({ kind: 'working', line: workingLine }),
  );
  return messageSurface(
    surfaces,
    destination,
    { ...location, placeholderTs },
    { statusTs: placeholderTs, ...(stream ? { stream } : {}) },
  );
}

export async function openIngestSurface(
  surfaces: SlackSurfaces,
  destination: SlackDestination,
  user: string,
  first: Status,
): Promise<ReplySurface> {
  const destinations: SlackDestination[] = [destination];
  if (destination.channel !== user) destinations.push({ channel: user });
  let lastError: unknown;
  for (const where of destinations) {
    try {
      const messageTs = await postMessage(surfaces.client, where, renderStatus(first));
      const location = {
        channel: where.channel,
        ...(where.threadTs ? { threadTs: where.threadTs } : {}),
        messageTs,
      };
      return messageSurface(surfaces, where, location, { statusTs: messageTs });
    } catch (error) {
      lastError = error;
      const code = slackErrorCode(error);
      surfaces.logger.warn({ code, channel: where.channel }, 'cannot post the ingest progress here');
      if (!code || !cannotPost.has(code)) break;
    }
  }
  throw lastError;
}

function reopenSlackTurn(surfaces: SlackSurfaces, turn: TurnInFlight): ReplySurface {
  const { channel, threadTs } = turn.location;
  if (!channel) throw new Error('the recorded turn has no channel');
  const statusTs = turn.kind === 'ingest' ? turn.location.messageTs : turn.location.placeholderTs;
  const surface = messageSurface(surfaces, { channel, ...(threadTs ? { threadTs } : {}) }, turn.location, {
    ...(statusTs ? { statusTs } : {}),
  });
  if (turn.kind !== 'ingest' || !statusTs) return surface;
  return {
    ...surface,
    finish: async (reply) => {
      // The record of an ingest whose result was posted may outlive it when forgetting it failed (a
      // full disk): then the result stays, rather than being replaced by a false "restarted" notice.
      if (reply.kind === 'interrupted-ingest' && (await showsResult(surfaces, channel, statusTs))) {
        surfaces.logger.info({ channel, messageTs: statusTs }, 'the ingest result was already posted');
        return;
      }
      await surface.finish(reply);
    },
  };
}

/** Whether the message `ts` already shows an ingest's final result (false when it cannot be read). */
async function showsResult(surfaces: SlackSurfaces, channel: string, ts: string): Promise<boolean> {
  try {
    const result = await surfaces.client.conversations.replies({ channel, ts, limit: 1, inclusive: true });
    const message = result.messages?.find((candidate) => candidate.ts === ts);
    return message?.text !== undefined && showsIngestResult(message.text);
  } catch (error) {
    surfaces.logger.debug({ code: slackErrorCode(error) }, 'could not read the ingest message');
    return false;
  }
}

/**
 * A surface over a status message (replaced by the first message of the reply) and/or the
 * assistant status (cleared once the reply is posted). An answer being written streams natively
 * where the channel allows it; otherwise its first text is posted as a new message in the thread
 * (the status message deleted), which later pieces edit and which continues in new messages as it
 * grows. The reply then replaces those messages in order, leftovers deleted, and the recorded
 * location follows the last one.
 */
function messageSurface(
  surfaces: SlackSurfaces,
  destination: SlackDestination,
  location: Location,
  state: { statusTs?: string; assistant?: boolean; stream?: { teamId: string; userId: string } },
): ReplySurface {
  const { client, logger } = surfaces;
  const { channel } = destination;
  let { assistant } = state;
  // While a reply is sent: learn where Slack refuses the feedback element (the classic buttons then).
  let sending: SendOptions = {};
  const primitives: MessagePrimitives<SlackMessage> = {
    post: (message) => postMessage(client, destination, message, sending),
    edit: (ts, message) => updateMessage(client, channel, ts, message, sending),
    remove: async (ts) => {
      await client.chat.delete({ channel, ts });
    },
    leftoverNote: {
      text: answerBelowText,
      blocks: [{ type: 'context', elements: [{ type: 'mrkdwn', text: answerBelowText }] }],
    },
    logger,
  };
  // The messages this surface edits: the status message, then the parts of a streamed answer.
  const messages = messageSequence(primitives, state.statusTs ? [state.statusTs] : []);
  // Slack's own text streaming, where the channel allows it: the message and what it shows so far.
  let native = state.stream !== undefined && destination.threadTs !== undefined;
  let streamTs: string | undefined;
  let streamed = '';
  // Whether the stream's message took the status message's place (a plan may start the stream before
  // any text: the status message then still shows the progress lines until the text comes).
  let streamShown = false;
  // The plan's task cards as last sent (by task id); chunks stop for good once Slack refuses them.
  const tasksShown = new Map<string, string>();
  const chunksRefused = surfaces.chunksRefused ?? new Set<string>();
  // Stream calls never overlap: a plan and the first text must not both start a stream.
  let streamQueue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = streamQueue.then(work, work);
    streamQueue = next.catch(() => {});
    return next;
  };
  /** The stream's message shows the answer now: the status message goes, the reply replaces the stream. */
  const showStream = async () => {
    if (streamShown || !streamTs) return;
    streamShown = true;
    for (const ts of messages.moveOn([streamTs])) await deleteStatus(ts);
  };
  // Status messages that could not be deleted when the text took their place: tried again after the
  // reply, else pointed at it, so no frozen "working…" line stays in the thread.
  const undeleted: string[] = [];
  const deleteStatus = async (ts: string) => {
    await primitives.remove(ts).catch((error: unknown) => {
      logger.debug(
        { code: slackErrorCode(error) },
        'could not delete the status message; trying again later',
      );
      undeleted.push(ts);
    });
  };

  /** Streams `text` natively; false when this channel refuses streaming (then `chat.update` takes over). */
  const streamNatively = (written: string): Promise<boolean> => exclusive(() => streamText(written));
  const streamText = async (written: string): Promise<boolean> => {
    const refused = surfaces.streamingRefused;
    if (!native || !state.stream || !destination.threadTs || refused.has(channel)) return false;
    // Streamed pieces are joined by Slack: neutralise mentions in the whole text, and hold back a
    // trailing word that could still become one.
    const text = settledPrefix(neutralizeMentions(written));
    if (streamTs) {
      // A rewritten text (a later model call) cannot be taken back from a stream: the reply replaces it.
      if (!text.startsWith(streamed)) return true;
      const more = text.slice(streamed.length);
      if (more) await client.chat.appendStream({ channel, ts: streamTs, markdown_text: more });
      streamed = text;
      // A stream the plan opened shows the answer once its first words are in it.
      if (streamed) await showStream();
      return true;
    }
    if (!text) return true;
    try {
      const started = await client.chat.startStream({
        channel,
        thread_ts: destination.threadTs,
        markdown_text: text,
        recipient_team_id: state.stream.teamId,
        recipient_user_id: state.stream.userId,
      });
      streamTs = String(started.ts);
    } catch (error) {
      const code = slackErrorCode(error);
      if (!code || !streamingRefusals.has(code)) throw error;
      logger.debug({ code, channel }, 'text streaming refused; editing a message instead');
      refused.add(channel);
      native = false;
      return false;
    }
    streamed = text;
    await showStream();
    return true;
  };

  /**
   * Shows the plan as task cards in the stream (starting it in `plan` display mode when no text has
   * come yet). Where Slack refuses the chunks (an older workspace), the channel is remembered and the
   * answer streams its text as before; where it refuses streaming itself, the text path learns that.
   */
  const showPlan = (steps: readonly PlanStep[]): Promise<void> =>
    exclusive(async () => {
      if (!native || !state.stream || !destination.threadTs) return;
      if (surfaces.streamingRefused.has(channel) || chunksRefused.has(channel)) return;
      const chunks = planChunks(steps, tasksShown);
      if (chunks.length === 0) return;
      try {
        if (streamTs) await client.chat.appendStream({ channel, ts: streamTs, chunks });
        else {
          const started = await client.chat.startStream({
            channel,
            thread_ts: destination.threadTs,
            recipient_team_id: state.stream.teamId,
            recipient_user_id: state.stream.userId,
            task_display_mode: 'plan',
            chunks,
          });
          streamTs = String(started.ts);
        }
      } catch (error) {
        const code = slackErrorCode(error);
        if (!code) throw error;
        logger.debug({ code, channel }, 'task cards refused; streaming the text only');
        chunksRefused.add(channel);
        return;
      }
      for (const chunk of chunks) {
        if (chunk.type === 'task_update') tasksShown.set(chunk.id, JSON.stringify(chunk));
      }
    });
  return {
    // Stream appends and the first text (a new message) are not chat.update calls.
    get nextTextIsEdit() {
      if (native && !surfaces.streamingRefused.has(channel)) return false;
      return messages.shownParts() > 0;
    },
    get location() {
      const last = messages.last();
      return last && last !== location.placeholderTs && last !== location.messageTs
        ? { ...location, placeholderTs: last }
        : location;
    },
    showStatus: async (status) => {
      if (messages.last()) await messages.showStatus(renderStatus(status));
      else if (assistant && status.kind === 'working' && destination.threadTs) {
        const line = status.line.slice(0, 250);
        await setAssistantStatus(client, channel, destination.threadTs, line, [line]);
      }
    },
    showPlan,
    showText: async (text) => {
      if (await streamNatively(text)) return;
      // The first text is a new message in the thread and the status message goes, as with a stream:
      // chat.update, Slack's tightest limit, is left for the reply and later pieces.
      const statusMessages = messages.shownParts() === 0 && destination.threadTs ? messages.moveOn([]) : [];
      await messages.showParts(renderStreamingText(text), (part) => JSON.stringify(part));
      for (const ts of statusMessages) await deleteStatus(ts);
    },
    finish: async (reply: Reply) => {
      const refusedElement = surfaces.feedbackElementRefused;
      // Where the channel refused the feedback element before, the classic buttons go at once.
      const rendered = renderReply(reply).map((message) =>
        refusedElement.has(channel) && message.fallbackBlocks
          ? { text: message.text, blocks: message.fallbackBlocks }
          : message,
      );
      const learn = { onFallbackBlocks: () => refusedElement.add(channel) };
      // Stream calls in flight (a plan's last step) go out before the stream stops.
      await exclusive(async () => {});
      // A stream that showed only the plan: the reply takes its message, the status message goes.
      await showStream();
      if (streamTs) {
        const ts = streamTs;
        streamTs = undefined;
        native = false;
        // Stop the stream with the reply's sources and 👍/👎 under it (the classic buttons where Slack
        // refuses the feedback element); the reply then replaces the streamed text with its final form.
        const last = rendered.at(-1);
        const closings = (rendered.length === 1 && last ? [last.blocks, last.fallbackBlocks] : []).flatMap(
          (blocks) => {
            const closing = (blocks ?? []).filter((block) => closingBlockTypes.has(String(block.type)));
            return closing.length > 0 ? [closing] : [];
          },
        );
        await stopStream(client, { channel, ts }, closings)
          // The classic buttons were taken where the element was refused.
          .then((used) => {
            if (used === 1 && closings.length === 2) learn.onFallbackBlocks();
          })
          .catch((error: unknown) => {
            logger.debug({ code: slackErrorCode(error) }, 'could not stop the stream');
          });
      }
      sending = learn;
      try {
        await messages.finish(rendered);
      } finally {
        sending = {};
      }
      for (const ts of undeleted.splice(0)) await removeOrNote(primitives, ts);
      if (assistant && destination.threadTs) {
        assistant = false;
        await setAssistantStatus(client, channel, destination.threadTs, '').catch((error: unknown) =>
          logger.debug({ err: error }, 'could not clear the status'),
        );
      }
    },
  };
}

/** The blocks of a reply that go under a stopped stream: its sources and its 👍/👎. */
const closingBlockTypes = new Set(['context', 'actions', 'context_actions']);

/**
 * Stops a stream with the first of `closings` Slack takes (it refuses blocks it does not know with
 * `invalid_blocks`), or with none; resolves with the index of the closing used (their count: none).
 */
async function stopStream(
  client: WebClient,
  stream: { channel: string; ts: string },
  closings: Array<Array<Record<string, unknown>>>,
): Promise<number> {
  for (const [index, blocks] of closings.entries()) {
    try {
      await client.chat.stopStream({ ...stream, blocks: blocks as never });
      return index;
    } catch (error) {
      if (slackErrorCode(error) !== 'invalid_blocks') throw error;
    }
  }
  await client.chat.stopStream(stream);
  return closings.length;
}

/** `text` without a trailing word that could still turn into a mention or an entity with the next piece. */
function settledPrefix(text: string): string {
  const tail = /\S*$/.exec(text)?.[0] ?? '';
  return /[@＠<&]/.test(tail) ? text.slice(0, text.length - tail.length) : text;
}

/**
 * Sets the assistant thread status; `loadingMessages` rotate under it (Slack's loading indicator):
 * the catalogue's lines at first, then the latest progress line alone, so what shows is what happens.
 */
function setAssistantStatus(
  client: WebClient,
  channel: string,
  threadTs: string,
  status: string,
  loadingMessages?: readonly string[],
) {
  return client.assistant.threads.setStatus({
    channel_id: channel,
    thread_ts: threadTs,
    status,
    ...(loadingMessages && loadingMessages.length > 0 ? { loading_messages: [...loadingMessages] } : {}),
  });
}

/**
 * Slack's side of the platform port: where a job shows its status and outcome.
 *
 * - An answer shows Slack's assistant thread status (`assistant.threads.setStatus`) where the
 *   workspace allows it — learnt once per channel; turns starting together wait for that one probe —
 *   and otherwise a placeholder message that the answer replaces.
 * - An ingest shows one progress message where the request came from (or, if the bot cannot post
 *   there, in a DM to the user) that becomes the result.
 * - `reopen` reaches a recorded turn again: its placeholder or progress message is replaced by the
 *   notice, or, where that message is gone (or the assistant status stood in for it), the notice is
 *   posted in the thread.
 */
import type { webApi } from '@slack/bolt';
import type { ChatPlatform, Location, Reply, ReplySurface, Status } from '../../core/chat-platform.ts';
import type { TurnInFlight } from '../../core/coordination-store.ts';
import type { Logger } from '../../logger.ts';
import { workingLine } from '../../turns/messages-en.ts';
import { renderReply, renderStatus, showsIngestResult } from './render-reply.ts';
import { slackThreadLink } from './slack-context.ts';
import { postMessage, type SlackDestination, slackErrorCode, updateMessage } from './slack-message.ts';

type WebClient = webApi.WebClient;

export interface SlackSurfaces {
  client: WebClient;
  logger: Logger;
  /** Per channel: whether Slack allows the assistant thread status there (learnt once). */
  assistantStatusSupport: Map<string, Promise<boolean>>;
}

/** Codes for "the bot cannot post here": an ingest's progress then goes to the user's DM. */
const cannotPost = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

export function slackPlatform(
  surfaces: SlackSurfaces,
  options: { statusIntervalMs: number; editsPerMinute: number },
): ChatPlatform {
  return {
    name: 'slack',
    logger: surfaces.logger,
    statusIntervalMs: options.statusIntervalMs,
    // Slack allows chat.update about 50 times a minute per workspace; a rate-limited call pauses
    // every other call of the client, answers included.
    editBudget: { perMinute: options.editsPerMinute, burst: 10 },
    reopen: async (turn: TurnInFlight) => reopenSlackTurn(surfaces, turn),
    threadLink: (place) => slackThreadLink(place.threadId),
  };
}

/** The location of an answer turn before its status exists. */
export function slackAnswerLocation(teamId: string, channel: string, threadTs: string): Location {
  return { teamId, channel, threadTs };
}

export async function openAnswerSurface(
  surfaces: SlackSurfaces,
  where: { teamId: string; channel: string; threadTs: string },
): Promise<ReplySurface> {
  const { client, logger, assistantStatusSupport } = surfaces;
  const { channel, threadTs } = where;
  const location = slackAnswerLocation(where.teamId, channel, threadTs);
  const known = assistantStatusSupport.get(channel);
  if (known === undefined || (await known)) {
    const probe = setAssistantStatus(client, channel, threadTs, workingLine.toLowerCase()).then(
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
    if (await probe) return messageSurface(surfaces, { channel, threadTs }, location, { assistant: true });
  }
  const destination = { channel, threadTs };
  const placeholderTs = await postMessage(
    client,
    destination,
    renderStatus({ kind: 'working', line: workingLine }),
  );
  return messageSurface(surfaces, destination, { ...location, placeholderTs }, { statusTs: placeholderTs });
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
 * assistant status (cleared once the reply is posted).
 */
function messageSurface(
  surfaces: SlackSurfaces,
  destination: SlackDestination,
  location: Location,
  state: { statusTs?: string; assistant?: boolean },
): ReplySurface {
  const { client, logger } = surfaces;
  let { statusTs, assistant } = state;
  return {
    location,
    showStatus: async (status) => {
      if (statusTs) await updateMessage(client, destination.channel, statusTs, renderStatus(status));
      else if (assistant && status.kind === 'working' && destination.threadTs) {
        await setAssistantStatus(
          client,
          destination.channel,
          destination.threadTs,
          status.line.slice(0, 250),
        );
      }
    },
    finish: async (reply: Reply) => {
      const [first, ...rest] = renderReply(reply);
      if (!first) return;
      let replaced = false;
      if (statusTs) {
        const target = statusTs;
        statusTs = undefined;
        try {
          await updateMessage(client, destination.channel, target, first);
          replaced = true;
        } catch (error) {
          logger.debug({ code: slackErrorCode(error) }, 'could not replace the status message; posting');
        }
      }
      if (!replaced) await postMessage(client, destination, first);
      for (const message of rest) await postMessage(client, destination, message);
      if (assistant && destination.threadTs) {
        assistant = false;
        await setAssistantStatus(client, destination.channel, destination.threadTs, '').catch(
          (error: unknown) => logger.debug({ err: error }, 'could not clear the status'),
        );
      }
    },
  };
}

function setAssistantStatus(client: WebClient, channel: string, threadTs: string, status: string) {
  return client.assistant.threads.setStatus({ channel_id: channel, thread_ts: threadTs, status });
}

/**
 * Slack's messages, parsed once into the runner's `IncomingMessage`: `app_mention` and `message`
 * events (both deliveries of one message, and every retry, share one key: team+channel+ts, which
 * survives restarts). Whether a message is a turn — a mention, a DM, a follow-up in a thread the bot
 * is in, not an edit or a bot's message — is the runner's decision (`turns/decide-turn.ts`).
 */

import type { App } from '@slack/bolt';
import type { IncomingMessage } from '../../core/chat-platform.ts';
import { encodeId } from '../../core/ids.ts';
import { holdReceipt } from '../../turns/held-receipts.ts';
import { incomingMessage } from '../../turns/incoming-message.ts';
import type { SlackFileReference } from './download-slack-file.ts';
import { slackFile, slackIngestFrom } from './ingest-job.ts';
import { slackAnswerThread } from './read-slack-thread.ts';
import { plainNotice } from './render-reply.ts';
import { channelScope, type SlackContext } from './slack-context.ts';
import { postMessage } from './slack-message.ts';
import { cleanIncomingText, mentionsOthers, mentionsUser } from './slack-text.ts';

/** The fields of a message or app_mention event this adapter reads. */
interface SlackMessageEvent {
  type: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  channel: string;
  channel_type?: string;
  team?: string;
  files?: SlackFileReference[];
}

/** Subtypes that are a person's new message; edits and deletions are parsed as such, the rest dropped. */
const newMessageSubtypes = new Set([undefined, 'file_share', 'thread_broadcast']);
const editSubtypes = new Set(['message_changed', 'message_deleted']);

export function registerMessageEvents(app: App, context: SlackContext): void {
  app.event('app_mention', async ({ event, body }) => {
    await onMessage(context, event as unknown as SlackMessageEvent, teamOf(body, event), body.event_id);
  });
  app.message(async ({ message, body }) => {
    await onMessage(context, message as unknown as SlackMessageEvent, teamOf(body, message), body.event_id);
  });
}

function teamOf(body: { team_id?: string }, event: unknown): string {
  return body.team_id ?? (event as { team?: string }).team ?? 'unknown';
}

async function onMessage(context: SlackContext, event: SlackMessageEvent, teamId: string, eventId: string) {
  const isEdit = editSubtypes.has(event.subtype ?? '');
  if (!isEdit && !newMessageSubtypes.has(event.subtype)) return;
  await context.turns.receive(parseMessage(context, event, teamId, eventId, isEdit));
}

function parseMessage(
  context: SlackContext,
  event: SlackMessageEvent,
  teamId: string,
  eventId: string,
  isEdit: boolean,
): IncomingMessage {
  const { botUserId } = context;
  const { channel, ts } = event;
  const rawText = event.text ?? '';
  const user = event.user ?? '';
  const threadTs = event.thread_ts ?? ts;
  const answeredIn = slackAnswerThread(context, { teamId, channel, threadTs, user });
  const reference = `${eventId} ${channel}/${ts}`;
  const destination = { channel, threadTs };
  return incomingMessage({
    key: encodeId('slack', [teamId, channel, ts]),
    reference,
    logFields: { eventId, threadId: answeredIn.threadId },
    workspace: teamId,
    channel,
    answeredIn,
    position: ts,
    author: user,
    text: cleanIncomingText(rawText, botUserId),
    mentionsBot: event.type === 'app_mention' || mentionsUser(rawText, botUserId),
    mentionsOthers: mentionsOthers(rawText, botUserId),
    isDirectMessage: event.channel_type === 'im' || (event.type === 'app_mention' && channel.startsWith('D')),
    inThread: event.thread_ts !== undefined && event.thread_ts !== ts,
    fromBot: Boolean(event.bot_id) || (!isEdit && !event.user) || event.user === botUserId,
    isEdit,
    // Channels (public and private) may answer top-level questions unasked; DMs and group DMs never.
    autoAnswerChannel:
      event.channel_type === 'channel' || event.channel_type === 'group'
        ? channelScope(teamId, channel)
        : undefined,
    notice: async (text) => {
      await postMessage(context.client, destination, plainNotice(text));
    },
    // Slack gets its receipt once the turn is recorded (a replica dying before leaves it to a retry).
    holdReceipt,
    // Downloaded from Slack's own hosts with the bot token, whether ingested or read for the thread.
    attachments: (event.files ?? []).map((file) => slackFile(context, file)),
    ingestFrom: slackIngestFrom(context, { teamId, channel, user, destination, reference }),
  });
}

/**
 * Mentions and messages. `@ragent <question>` in a channel, any message in a DM with the bot, and any
 * reply in a thread the bot is conversing in start or continue that thread's conversation (a reply to
 * a clarifying question resumes it). Bots — the bot itself included — are ignored; a message is
 * handled once although Slack delivers it as `app_mention` and `message`, and however often Slack
 * retries it (the claim on team+channel+ts survives restarts).
 */

import type { App } from '@slack/bolt';
import { ingestTargetFromText } from '../../turns/ingest-target.ts';
import { emptyQuestionText } from '../../turns/messages-en.ts';
import { isPdfFile, type SlackFileReference } from './download-slack-file.ts';
import { holdAcknowledgement } from './held-acknowledgements.ts';
import { slackIngestJob } from './ingest-job.ts';
import { plainNotice } from './render-reply.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackThreadId } from './slack-ids.ts';
import { postMessage } from './slack-message.ts';
import { openAnswerSurface, slackAnswerLocation } from './slack-surfaces.ts';
import { cleanIncomingText, mentionsUser } from './slack-text.ts';

/** The fields of a message or app_mention event this adapter reads. */
interface IncomingMessage {
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

const handledSubtypes = new Set([undefined, 'file_share', 'thread_broadcast']);

export function registerMessageEvents(app: App, context: SlackContext): void {
  app.event('app_mention', async ({ event, body }) => {
    await onMessage(context, event as unknown as IncomingMessage, teamOf(body, event), body.event_id);
  });
  app.message(async ({ message, body }) => {
    await onMessage(context, message as unknown as IncomingMessage, teamOf(body, message), body.event_id);
  });
}

function teamOf(body: { team_id?: string }, event: unknown): string {
  return body.team_id ?? (event as { team?: string }).team ?? 'unknown';
}

async function onMessage(context: SlackContext, event: IncomingMessage, teamId: string, eventId: string) {
  if (!handledSubtypes.has(event.subtype)) return;
  if (event.bot_id || !event.user || event.user === context.botUserId) return;
  const rawText = event.text ?? '';
  const mentioned = event.type === 'app_mention' || mentionsUser(rawText, context.botUserId);
  const direct =
    event.channel_type === 'im' || (event.type === 'app_mention' && event.channel.startsWith('D'));
  const threadTs = event.thread_ts ?? event.ts;
  const threadId = slackThreadId(teamId, event.channel, threadTs);
  const log = context.logger.child({ eventId, threadId });

  if (!mentioned && !direct) {
    if (!event.thread_ts) return;
    const conversing = await context.services.conversations.hasThread(threadId).catch((error: unknown) => {
      log.error({ err: error }, 'could not check whether the bot converses in this thread');
      return false;
    });
    if (!conversing) return;
  }
  // One message, one answer: both deliveries (app_mention + message) and every retry share this key.
  const eventKey = `slack:${teamId}:${event.channel}:${event.ts}`;
  const claimed = async () => {
    if (await context.turns.claim(eventKey)) return true;
    log.debug('duplicate delivery ignored');
    return false;
  };

  const text = cleanIncomingText(rawText, context.botUserId);
  const files = event.files ?? [];
  const reference = `${eventId} ${event.channel}/${event.ts}`;
  const destination = { channel: event.channel, threadTs };
  const user = event.user;

  if (/\bingest\b/i.test(text) && files.length > 0) {
    const target = ingestTargetFromText(text, context.services.config.ingest.defaultSet);
    const channel = event.channel;
    if (!(await claimed())) return;
    context.turns.ingest(
      slackIngestJob(context, { teamId, channel, target, user, files, destination, reference }),
    );
    return;
  }
  const hint =
    /^ingest\b/i.test(text) && !files.some(isPdfFile)
      ? 'Attach a PDF to the message that says “ingest”, or use `/ragent ingest`.'
      : text.length === 0
        ? emptyQuestionText
        : undefined;
  if (hint) {
    if (!(await claimed())) return;
    context.turns.track('posting a hint', async () => {
      await postMessage(context.client, destination, plainNotice(hint));
    });
    return;
  }
  const where = { teamId, channel: event.channel, threadTs, user };
  context.turns.answer({
    key: eventKey,
    text,
    reference,
    logFields: { eventId, threadId },
    location: slackAnswerLocation(teamId, event.channel, threadTs),
    thread: { threadId, position: event.ts },
    // Claimed by the runner, with the turn record in one write; Slack gets its receipt after that.
    claim: true,
    recorded: holdAcknowledgement(),
    open: async () => ({
      surface: await openAnswerSurface(context.surfaces, where),
      place: { threadId, scopes: await placeScopes(context, teamId, event.channel), user },
    }),
  });
}

/**
 * The thread a Slack message is answered in (the core's `AnswerThread`: a message's own thread, or
 * the one its replies start under it), and reading it when the bot joins it, through the core's
 * `readThread`: `conversations.replies`
 * (channels:history / groups:history) gives the thread oldest first, paged forward with its cursor up
 * to the question (`latest`). Authors are named by the display name the message gives, else by
 * `users.info`'s, which also names the people mentioned in the text.
 */
import type { ThreadMessage } from '../../core/types.ts';
import type { AnswerThread } from '../../turns/answer-thread.ts';
import { nameMentions, readThread, type ThreadWhere } from '../../turns/read-thread.ts';
import { placeScopes, type SlackContext } from './slack-context.ts';
import { slackErrorMessages } from './slack-error-messages-en.ts';
import { slackThreadId } from './slack-ids.ts';
import { slackErrorCode } from './slack-message.ts';
import { openAnswerSurface, slackAnswerLocation } from './slack-surfaces.ts';
import { cleanIncomingText, slackMention } from './slack-text.ts';

interface SlackReply {
  ts?: string;
  user?: string;
  username?: string;
  bot_profile?: { name?: string };
  user_profile?: { display_name?: string; real_name?: string };
  text?: string;
}

export interface SlackThreadWhere extends ThreadWhere {
  channel: string;
  /** The thread's root. */
  threadTs: string;
}

/** `threadTs`: the thread's root (the message itself when it starts one); `user`: who asked. */
export function slackAnswerThread(
  context: SlackContext,
  at: { teamId: string; channel: string; threadTs: string; user: string },
): AnswerThread {
  const { teamId, channel, threadTs } = at;
  return {
    threadId: slackThreadId(teamId, channel, threadTs),
    location: slackAnswerLocation(teamId, channel, threadTs),
    scopes: () => placeScopes(context, teamId, channel),
    open: () => openAnswerSurface(context.surfaces, at),
    read: (range, limit) => readSlackThread(context, { channel, threadTs, ...range }, limit),
  };
}

/** Slack's answers to a token or a bot that may not read the channel. */
const refusedCodes = new Set(['missing_scope', 'not_in_channel', 'channel_not_found']);

function readSlackThread(
  context: SlackContext,
  where: SlackThreadWhere,
  limit: number,
): Promise<ThreadMessage[]> {
  const { botUserId, client } = context;
  return readThread<SlackReply>(
    {
      order: 'oldest-first',
      // Slack allows up to 1,000; 200 is its advice.
      pageSize: 200,
      page: async (cursor, size) => {
        const result = await client.conversations.replies({
          channel: where.channel,
          ts: where.threadTs,
          ...(where.before ? { latest: where.before, inclusive: false } : {}),
          limit: size,
          ...(cursor ? { cursor } : {}),
        });
        const next = result.has_more ? result.response_metadata?.next_cursor : undefined;
        return { messages: (result.messages ?? []) as SlackReply[], next: next || undefined };
      },
      where,
      refusal: (error) => {
        const code = slackErrorCode(error) ?? '';
        return refusedCodes.has(code) ? slackErrorMessages.PERMISSION_DENIED({ code }) : undefined;
      },
      idOf: (message) => message.ts,
      isOwn: (message) => message.user === botUserId,
      // `latest` is honoured by Slack; checked again so the question never counts as context.
      keep: (message) => !(where.before && Number(message.ts) >= Number(where.before)),
      lookUpName: async (user) => {
        const found = (await client.users.info({ user })).user;
        return found?.profile?.display_name || found?.profile?.real_name || found?.real_name || found?.name;
      },
      read: async (message, name) => {
        const given = message.user_profile?.display_name || message.user_profile?.real_name;
        const text = await nameMentions(message.text ?? '', slackMention, botUserId, (id) => name(id, id));
        return {
          person: given ? undefined : message.user,
          shown: message.user
            ? given || message.user
            : (message.bot_profile?.name ?? message.username ?? 'an app'),
          text: cleanIncomingText(text, botUserId),
          at: new Date(Number(message.ts) * 1000),
        };
      },
    },
    limit,
  );
}

/**
 * A Slack thread the bot joins, read through the core's `readThread`: `conversations.replies`
 * (channels:history / groups:history) gives the thread oldest first, paged forward with its cursor up
 * to the question (`latest`). Authors are named by their display name (`users.info`), mentions of
 * people in the text become their names; the bot's own messages are marked as its own.
 */
import type { ThreadMessage } from '../../core/types.ts';
import { RagentError } from '../../errors.ts';
import { readThread, type ThreadWhere } from '../../turns/read-thread.ts';
import type { SlackContext } from './slack-context.ts';
import { slackErrorMessages } from './slack-error-messages-en.ts';
import { slackErrorCode } from './slack-message.ts';
import { cleanIncomingText } from './slack-text.ts';

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

const mention = /<@([A-Z0-9]+)(?:\|[^>]*)?>/g;

export function readSlackThread(
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
        const result = await repliesPage(context, {
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
      idOf: (message) => message.ts,
      isOwn: (message) => message.user === botUserId,
      // `latest` is honoured by Slack; checked again so the question never counts as context.
      keep: (message) => !(where.before && Number(message.ts) >= Number(where.before)),
      lookUpName: async (user) => {
        const found = (await client.users.info({ user })).user;
        return found?.profile?.display_name || found?.profile?.real_name || found?.real_name || found?.name;
      },
      read: async (message, name) => {
        const fromBot = message.user === botUserId;
        const given = message.user_profile?.display_name || message.user_profile?.real_name;
        const author = fromBot
          ? 'ragent'
          : message.user
            ? given || (await name(message.user, message.user))
            : (message.bot_profile?.name ?? message.username ?? 'an app');
        const names = new Map<string, string>();
        for (const [, id] of (message.text ?? '').matchAll(mention))
          names.set(id!, id === botUserId ? 'ragent' : await name(id!, id!));
        const text = (message.text ?? '').replace(mention, (_all, id: string) => `@${names.get(id)}`);
        return {
          author,
          text: cleanIncomingText(text, botUserId),
          fromBot,
          at: new Date(Number(message.ts) * 1000).toISOString(),
        };
      },
    },
    limit,
  );
}

/** One page; a refusal says what to fix (the log shows it once: the turn goes on without the thread). */
async function repliesPage(
  context: SlackContext,
  request: Parameters<SlackContext['client']['conversations']['replies']>[0],
) {
  try {
    return await context.client.conversations.replies(request);
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === 'missing_scope' || code === 'not_in_channel' || code === 'channel_not_found')
      throw new RagentError('PERMISSION_DENIED', slackErrorMessages.PERMISSION_DENIED({ code }), {
        cause: error,
      });
    throw error;
  }
}

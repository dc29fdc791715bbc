/**
 * Reads a Slack thread the bot joins (`conversations.replies`, channels:history / groups:history):
 * the messages before the question, newest last, at most `limit`. Slack returns a thread oldest
 * first, so the pages are walked to the question (`latest`), keeping the newest `limit`; a thread
 * longer than `maxPages` pages is read from its start no further (never unbounded). Each author is
 * named by their display name (`users.info`, asked once per person per read), and mentions of people
 * in the text become their names; the bot's own messages are marked as its own. The core makes
 * the rest of the mention syntax inert and fits the messages to the token budget.
 */
import type { ThreadMessage } from '../../core/types.ts';
import { RagentError } from '../../errors.ts';
import type { SlackContext } from './slack-context.ts';
import { slackErrorMessages } from './slack-error-messages-en.ts';
import { slackErrorCode } from './slack-message.ts';
import { cleanIncomingText } from './slack-text.ts';

/** One page of `conversations.replies` (Slack allows up to 1,000; 200 is its advice). */
const pageSize = 200;
const maxPages = 10;
/** People named by lookups per read, at most: further ones keep their id. */
const maxLookups = 50;

interface SlackReply {
  ts?: string;
  user?: string;
  bot_id?: string;
  username?: string;
  bot_profile?: { name?: string };
  user_profile?: { display_name?: string; real_name?: string };
  subtype?: string;
  text?: string;
}

export interface SlackThreadWhere {
  channel: string;
  /** The thread's root. */
  threadTs: string;
  /** The question's ts: only messages before it are read (unset: the whole thread so far). */
  before?: string;
  /** A message that is not context: the question itself (asked on a thread's first message). */
  exclude?: string;
  /**
   * Leave out the bot's own messages: read after the answer's status was posted (no `before`), they
   * are only that status (a thread the bot converses in is never read).
   */
  skipOwn?: boolean;
}

export async function readSlackThread(
  context: SlackContext,
  where: SlackThreadWhere,
  limit: number,
): Promise<ThreadMessage[]> {
  const kept: SlackReply[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const result = await repliesPage(context, {
      channel: where.channel,
      ts: where.threadTs,
      ...(where.before ? { latest: where.before, inclusive: false } : {}),
      limit: pageSize,
      ...(cursor ? { cursor } : {}),
    });
    for (const message of (result.messages ?? []) as SlackReply[]) {
      // `latest` is honoured by Slack; checked again so the question never counts as context.
      if (!message.ts || message.ts === where.exclude) continue;
      if (where.skipOwn && message.user === context.botUserId) continue;
      if (where.before && Number(message.ts) >= Number(where.before)) continue;
      kept.push(message);
      if (kept.length > limit) kept.shift();
    }
    cursor = result.response_metadata?.next_cursor || undefined;
    if (!cursor || !result.has_more) break;
  }
  const names = nameLookup(context);
  const messages: ThreadMessage[] = [];
  for (const message of kept) {
    const fromBot = message.user === context.botUserId;
    const author = fromBot
      ? 'ragent'
      : message.user
        ? await names(message.user, message.user_profile)
        : (message.bot_profile?.name ?? message.username ?? 'an app');
    messages.push({
      author,
      text: await withNames(message.text ?? '', names, context.botUserId),
      fromBot,
      at: new Date(Number(message.ts) * 1000).toISOString(),
    });
  }
  return messages;
}

type NameLookup = (user: string, profile?: SlackReply['user_profile']) => Promise<string>;

/** Display names, asked of Slack once per person; a failed lookup keeps the id (never fails the read). */
function nameLookup(context: SlackContext): NameLookup {
  const cache = new Map<string, Promise<string>>();
  return (user, profile) => {
    const given = profile?.display_name || profile?.real_name;
    if (given) return Promise.resolve(given);
    let name = cache.get(user);
    if (!name) {
      name =
        cache.size >= maxLookups
          ? Promise.resolve(user)
          : context.client.users.info({ user }).then(
              (result) => {
                const found = result.user as
                  | {
                      name?: string;
                      real_name?: string;
                      profile?: { display_name?: string; real_name?: string };
                    }
                  | undefined;
                return (
                  found?.profile?.display_name ||
                  found?.profile?.real_name ||
                  found?.real_name ||
                  found?.name ||
                  user
                );
              },
              () => user,
            );
      cache.set(user, name);
    }
    return name;
  };
}

/** The text as people read it: `<@U…>` as `@name` (the bot as `@ragent`), links and entities decoded. */
async function withNames(text: string, names: NameLookup, botUserId: string): Promise<string> {
  const ids = [...new Set([...text.matchAll(/<@([A-Z0-9]+)(?:\|[^>]*)?>/g)].map((match) => match[1]!))];
  const resolved = new Map<string, string>();
  for (const id of ids) resolved.set(id, id === botUserId ? 'ragent' : await names(id));
  const named = text.replace(
    /<@([A-Z0-9]+)(?:\|[^>]*)?>/g,
    (_all, id: string) => `@${resolved.get(id) ?? id}`,
  );
  return cleanIncomingText(named, botUserId);
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

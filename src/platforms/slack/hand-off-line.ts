/**
 * Slack's side of the hand-off line (`answer-actions/hand-off-line.ts`): a target is a user group
 * `S…` (mentioned as `<!subteam^S…>`) or a person `U…`/`W…` (`<@U…>`).
 */
import type { webApi } from '@slack/bolt';
import { postHandOffLine } from '../../answer-actions/hand-off-line.ts';
import { threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';

/** A stored or configured target as Slack's mention; undefined for anything that is not one. */
export function slackHandOffMention(target: string): string | undefined {
  if (/^S[A-Z0-9]{2,}$/.test(target)) return `<!subteam^${target}>`;
  if (/^[UW][A-Z0-9]{2,}$/.test(target)) return `<@${target}>`;
  return undefined;
}

/** `<!subteam^S123|@support>` or `<@U123|name>` (how the command escapes a mention) → `S123` / `U123`. */
export function parseSlackHandOffTarget(text: string): string | undefined {
  const trimmed = text.trim();
  const group = /^<!subteam\^(S[A-Z0-9]+)(?:\|[^>]*)?>$/.exec(trimmed)?.[1];
  if (group) return group;
  return /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(trimmed)?.[1];
}

export async function postSlackHandOff(client: webApi.WebClient, threadId: ThreadId, target: string) {
  const [, channel, threadTs] = threadParts(threadId, 'slack', 3) ?? [];
  if (!channel || !threadTs) throw new Error(`cannot hand off ${threadId}: not a Slack thread`);
  const post = (text: string) => client.chat.postMessage({ channel, thread_ts: threadTs, text });
  await postHandOffLine(target, slackHandOffMention(target), post);
}

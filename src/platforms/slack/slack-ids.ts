/**
 * Slack's thread ids (`slack:<team>:<channel>:<thread ts>`, made by core/ids.ts so a part holding
 * `:` stays one part) and the links that open them.
 */
import { encodeId, threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return encodeId('slack', [teamId, channel, threadTs]);
}

/** A link that opens the thread in Slack's web client (from a thread id `slack:<team>:<channel>:<ts>`). */
export function slackThreadLink(threadId: ThreadId): string | undefined {
  const [teamId, channel, threadTs] = threadParts(threadId, 'slack', 3) ?? [];
  if (!teamId || !channel || !threadTs) return undefined;
  return `https://app.slack.com/client/${teamId}/${channel}/thread/${channel}-${threadTs}`;
}

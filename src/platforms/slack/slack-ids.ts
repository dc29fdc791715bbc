/**
 * Slack's thread ids (`slack:<team>:<channel>:<thread ts>`, made by core/ids.ts so a part holding
 * `:` stays one part) and the links that open them.
 */
import { encodeId, threadParts } from '../../core/ids.ts';
import type { ThreadId } from '../../core/types.ts';
import { privateAskerOf } from '../../turns/private-answers.ts';

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return encodeId('slack', [teamId, channel, threadTs]);
}

/** A link that opens the thread in Slack's web client (from a thread id `slack:<team>:<channel>:<ts>`). */
export function slackThreadLink(threadId: ThreadId): string | undefined {
  const [teamId, channel, threadTs] = threadParts(threadId, 'slack', 3) ?? [];
  // A private conversation (`/ragent ask`) has no thread in Slack to open.
  if (!teamId || !channel || !threadTs || privateAskerOf(threadId)) return undefined;
  return `https://app.slack.com/client/${teamId}/${channel}/thread/${channel}-${threadTs}`;
}

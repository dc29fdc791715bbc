/** Slack's thread ids (`slack:<team>:<channel>:<thread ts>`) and the links that open them. */
import type { ThreadId } from '../../core/types.ts';

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return `slack:${teamId}:${channel}:${threadTs}`;
}

/** A link that opens the thread in Slack's web client (from a thread id `slack:<team>:<channel>:<ts>`). */
export function slackThreadLink(threadId: ThreadId): string | undefined {
  const [platform, teamId, channel, threadTs] = threadId.split(':');
  if (platform !== 'slack' || !teamId || !channel || !threadTs) return undefined;
  return `https://app.slack.com/client/${teamId}/${channel}/thread/${channel}-${threadTs}`;
}

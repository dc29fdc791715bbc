/** What every Slack handler needs, built once by `startSlack`. */
import type { webApi } from '@slack/bolt';
import type { PlatformTurns } from '../../core/chat-platform.ts';
import type { Services } from '../../core/services.ts';
import type { Scope, ThreadId } from '../../core/types.ts';
import { sharedScope } from '../../core/types.ts';
import type { Logger } from '../../logger.ts';
import type { SlackSurfaces } from './slack-surfaces.ts';

export interface SlackContext {
  services: Services;
  client: webApi.WebClient;
  logger: Logger;
  botUserId: string;
  /** The turn runner's handle for Slack: claims, answers, ingests, tracked background work. */
  turns: PlatformTurns;
  surfaces: SlackSurfaces;
}

/** The scope of a workspace's documents; the model never chooses it. */
export function workspaceScope(teamId: string): Scope {
  return `slack:${teamId}`;
}

export function workspaceScopes(teamId: string): Scope[] {
  return [workspaceScope(teamId), sharedScope];
}

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return `slack:${teamId}:${channel}:${threadTs}`;
}

/** A link that opens the thread in Slack's web client (from a {@link slackThreadId}). */
export function slackThreadLink(threadId: ThreadId): string | undefined {
  const [platform, teamId, channel, threadTs] = threadId.split(':');
  if (platform !== 'slack' || !teamId || !channel || !threadTs) return undefined;
  return `https://app.slack.com/client/${teamId}/${channel}/thread/${channel}-${threadTs}`;
}

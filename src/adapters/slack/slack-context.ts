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

/** The scope of one channel's document set (public, private or group DM alike). */
export function channelScope(teamId: string, channel: string): Scope {
  return `slack:${teamId}:${channel}`;
}

/** A DM with the bot: its id starts with D (Slack's `im`). */
export function isDirectMessageChannel(channel: string): boolean {
  return channel.startsWith('D');
}

/**
 * What a conversation in `channel` may search, from where the event came and nothing else: in a
 * channel (and its threads) that channel's set, the workspace's and `shared` — never another
 * channel's; in a DM the workspace's and `shared`, as before channel sets existed.
 */
export function placeScopes(teamId: string, channel: string): Scope[] {
  if (isDirectMessageChannel(channel)) return workspaceScopes(teamId);
  return [channelScope(teamId, channel), workspaceScope(teamId), sharedScope];
}

export function slackThreadId(teamId: string, channel: string, threadTs: string): ThreadId {
  return `slack:${teamId}:${channel}:${threadTs}`;
}

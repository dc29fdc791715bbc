/** What every Slack handler needs, built once by `startSlack`. */
import type { webApi } from '@slack/bolt';
import type { PlatformTurns } from '../../core/chat-platform.ts';
import { channelScope as encodeChannelScope, placeScope } from '../../core/ids.ts';
import type { Services } from '../../core/services.ts';
import type { Scope } from '../../core/types.ts';
import { sharedScope } from '../../core/types.ts';
import type { Logger } from '../../logger.ts';
import type { PlaceSets } from '../../turns/document-commands.ts';
import { type PlaceIds, placeScopesOf, placeSetsOf } from '../../turns/place-sets.ts';
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
  return placeScope('slack', teamId);
}

export function workspaceScopes(teamId: string): Scope[] {
  return [workspaceScope(teamId), sharedScope];
}

/** The scope of one channel's document set (public, private or group DM alike). */
export function channelScope(teamId: string, channel: string): Scope {
  return encodeChannelScope('slack', teamId, channel);
}

/** A DM with the bot: its id starts with D (Slack's `im`). */
export function isDirectMessageChannel(channel: string): boolean {
  return channel.startsWith('D');
}

const placeIds = (teamId: string, channel: string): PlaceIds => ({
  platform: 'slack',
  place: teamId,
  placeName: 'workspace',
  channel,
  inDirectMessage: isDirectMessageChannel(channel),
});

/** The sets of `channel` (turns/place-sets.ts); in a DM the workspace's and `shared`. */
export function placeSets(teamId: string, channel: string): PlaceSets {
  return placeSetsOf(placeIds(teamId, channel));
}

/** What a conversation in `channel` may search: its sets, with the channel's links. */
export async function placeScopes(context: SlackContext, teamId: string, channel: string): Promise<Scope[]> {
  return placeScopesOf(context.services.coordination, placeIds(teamId, channel), context.logger);
}

/** What every Slack handler needs, built once by `startSlack`. */
import type { webApi } from '@slack/bolt';
import type { PlatformTurns } from '../../core/chat-platform.ts';
import type { Services } from '../../core/services.ts';
import type { Scope } from '../../core/types.ts';
import type { Logger } from '../../logger.ts';
import { placesOf } from '../../turns/place-sets.ts';
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

export const slackPlaces = placesOf('slack', 'workspace');

/** The scope of a workspace's documents; the model never chooses it. */
export const workspaceScope = slackPlaces.placeScope;

/** The scope of one channel's document set (public, private or group DM alike). */
export const channelScope = slackPlaces.channelScope;

/** A DM with the bot: its id starts with D (Slack's `im`). */
export function isDirectMessageChannel(channel: string): boolean {
  return channel.startsWith('D');
}

/** Where an event in `channel` came from (turns/place-sets.ts). */
export const placeAt = (teamId: string, channel: string) =>
  slackPlaces.at(teamId, channel, isDirectMessageChannel(channel));

/**
 * What a conversation in `channel` may search: its sets, with the channel's links (in a DM the
 * workspace's and `shared`).
 */
export async function placeScopes(context: SlackContext, teamId: string, channel: string): Promise<Scope[]> {
  return slackPlaces.scopes(context.services.coordination, placeAt(teamId, channel), context.logger);
}

/**
 * What every Discord handler gets: the services and the runner's handle for Discord. The client an
 * event came through (one per Discord shard this replica holds) is the event's own `client`.
 */
import type { PlatformTurns } from '../../core/chat-platform.ts';
import type { Services } from '../../core/services.ts';
import type { Logger } from '../../logger.ts';
import type { DiscordSurfaces } from './discord-surfaces.ts';

export interface DiscordContext {
  services: Services;
  logger: Logger;
  /** The turn runner's handle for Discord: claims, answers, ingests, tracked background work. */
  turns: PlatformTurns;
  surfaces: DiscordSurfaces;
  /** Set once the platform stopped taking events. */
  isStopping(): boolean;
}

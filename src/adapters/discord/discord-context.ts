/** What every Discord handler gets: the services, the client and the runner's handle for Discord. */
import type { Client } from 'discord.js';
import type { PlatformTurns } from '../../core/chat-platform.ts';
import type { Services } from '../../core/services.ts';
import type { Logger } from '../../logger.ts';
import type { DiscordSurfaces } from './discord-surfaces.ts';

export interface DiscordContext {
  services: Services;
  client: Client;
  logger: Logger;
  /** The turn runner's handle for Discord: claims, answers, ingests, tracked background work. */
  turns: PlatformTurns;
  surfaces: DiscordSurfaces;
  /** Set once the platform stopped taking events. */
  isStopping(): boolean;
}

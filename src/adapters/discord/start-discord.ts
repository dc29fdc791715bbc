/**
 * The Discord adapter: connects the bot, turns mentions, thread replies, slash commands and button
 * clicks into calls to the shared services, and renders what comes back.
 */
import { type Client, Events } from 'discord.js';
import type { Services } from '../../core/services.ts';
import { RagentError } from '../../errors.ts';
import { networkFailureOf } from '../../outside-calls.ts';
import type { RunningAdapter } from '../running-adapter.ts';
import { createDiscordClient } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { discordPlatform } from './discord-surfaces.ts';
import { handleInteraction } from './handle-interaction.ts';
import { handleMessage } from './handle-message.ts';

export interface DiscordAdapterOptions {
  /** How long `stop()` of this platform alone waits for its jobs (default 15 s; `ragent start` uses its own). */
  stopTimeoutMs?: number;
  /** Minimum time between two edits of a status message (default 1 s). */
  progressIntervalMs?: number;
  /** Minimum time between two edits of an answer being written (default 1.25 s: with the reply, under Discord's 5 edits per 5 s a channel). */
  textIntervalMs?: number;
  /** discord.js's client-side global REST limit (Discord's default for bots is 50/s; the bench lifts it). */
  restGlobalRequestsPerSecond?: number;
}

export async function startDiscord(
  services: Services,
  options: DiscordAdapterOptions = {},
): Promise<RunningAdapter> {
  const { config } = services;
  if (!config.discord.token) {
    throw new RagentError(
      'CONFIG_INVALID',
      'DISCORD_TOKEN is not set. Copy the bot token from your application in the Discord developer portal (Bot → Reset Token).',
    );
  }
  const logger = services.logger.child({ adapter: 'discord' });
  const client: Client = createDiscordClient(
    config,
    options.restGlobalRequestsPerSecond
      ? { globalRequestsPerSecond: options.restGlobalRequestsPerSecond }
      : {},
  );
  let stopping = false;
  const surfaces = { client, logger, messageContentIntent: config.discord.messageContentIntent };
  const platform = discordPlatform(surfaces, {
    statusIntervalMs: options.progressIntervalMs ?? 1_000,
    textIntervalMs: options.textIntervalMs ?? 1_250,
  });
  // A replica that lost the shared database handles no new messages (the runner's claim refuses them).
  platform.stopTaking = async () => {
    stopping = true;
  };
  const turns = services.turns.attach(platform);
  const context: DiscordContext = { services, client, logger, turns, surfaces, isStopping: () => stopping };

  client.on(Events.MessageCreate, (message) => {
    turns.track('handling a message', () => handleMessage(context, message));
  });
  client.on(Events.InteractionCreate, (interaction) => {
    turns.track('handling an interaction', () => handleInteraction(context, interaction));
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn(message));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await client.login(config.discord.token);
    await ready;
  } catch (error) {
    await client.destroy();
    const network = networkFailureOf(error);
    if (network) {
      throw new RagentError(
        'NETWORK_UNREACHABLE',
        `Could not reach Discord (${network.reason}). Check the network${config.discord.apiUrl ? ' and DISCORD_API_URL' : ''}, then start again.`,
        { cause: error, details: { reason: network.reason, networkCode: network.networkCode } },
      );
    }
    throw new RagentError(
      'CONFIG_INVALID',
      `Could not connect to Discord (${error instanceof Error ? error.message : String(error)}). Check DISCORD_TOKEN, and that the Message Content intent is enabled in the developer portal if DISCORD_MESSAGE_CONTENT is on.`,
      { cause: error },
    );
  }
  logger.info(
    {
      user: client.user?.tag,
      guilds: client.guilds.cache.size,
      messageContent: config.discord.messageContentIntent,
    },
    'discord connected',
  );
  // Threads a crash left without an outcome are told what happened (Discord will not redeliver them).
  await turns.tellOrphans();

  let destroyed: Promise<void> | undefined;
  const stopTaking = async () => {
    stopping = true;
  };
  // After the runner told the abandoned threads: they are told through this client.
  const disconnect = () => {
    destroyed ??= client.destroy();
    return destroyed;
  };
  return {
    name: 'discord',
    stopTaking,
    disconnect,
    stop: async () => {
      await stopTaking();
      await turns.stop(options.stopTimeoutMs ?? 15_000);
      await disconnect();
    },
  };
}

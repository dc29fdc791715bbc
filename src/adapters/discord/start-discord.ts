/**
 * The Discord adapter: connects the bot, turns mentions, thread replies, slash commands and button
 * clicks into calls to the shared services, and renders what comes back.
 */
import { type Client, Events } from 'discord.js';
import { RagentError } from '../../errors.ts';
import type { Services } from '../../main.ts';
import type { RunningAdapter } from '../running-adapter.ts';
import { createAcknowledgementGate } from '../shared/acknowledgement-gate.ts';
import { tellUnfinishedTurns } from '../shared/turns-in-flight.ts';
import { askAgainInDiscordThread } from './ask-again-notice.ts';
import { createDiscordClient } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { handleInteraction } from './handle-interaction.ts';
import { handleMessage } from './handle-message.ts';
import { createInFlightWork } from './in-flight-work.ts';

export interface DiscordAdapterOptions {
  /** How long `stop()` waits for turns in flight (default 10 s). */
  stopTimeoutMs?: number;
  /** Minimum time between two edits of a status message (default 1 s). */
  progressIntervalMs?: number;
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
  const context: DiscordContext = {
    services,
    client,
    logger,
    inFlight: createInFlightWork(),
    acknowledgements: createAcknowledgementGate(),
    isStopping: () => stopping,
    progressIntervalMs: options.progressIntervalMs ?? 1_000,
  };

  client.on(Events.MessageCreate, (message) => {
    context.inFlight.track(
      handleMessage(context, message).catch((error: unknown) =>
        logger.error({ err: error, message: message.id }, 'discord message handling failed'),
      ),
    );
  });
  client.on(Events.InteractionCreate, (interaction) => {
    context.inFlight.track(
      handleInteraction(context, interaction).catch((error: unknown) =>
        logger.error({ err: error, interaction: interaction.id }, 'discord interaction handling failed'),
      ),
    );
  });
  client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => logger.warn(message));

  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  try {
    await client.login(config.discord.token);
    await ready;
  } catch (error) {
    await client.destroy();
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
  // Threads a crash left without an answer are told to ask again (Discord will not redeliver them).
  await tellUnfinishedTurns({
    store: services.botState,
    platform: 'discord',
    logger,
    tell: askAgainInDiscordThread(client, logger),
  });

  return {
    name: 'discord',
    stop: async () => {
      if (stopping) return;
      stopping = true;
      const abandoned = await context.inFlight.drain(options.stopTimeoutMs ?? 10_000);
      if (abandoned > 0) logger.warn({ abandoned }, 'stopped with discord work still in flight');
      await client.destroy();
    },
  };
}

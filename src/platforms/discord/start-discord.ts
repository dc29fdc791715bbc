/**
 * The Discord adapter: connects the bot (one gateway connection per Discord shard this replica holds,
 * see discord-shards.ts), turns mentions, thread replies, slash commands and button clicks into calls
 * to the shared services, and renders what comes back.
 */
import { type Client, Events } from 'discord.js';
import type { Services } from '../../core/services.ts';
import { shareOf } from '../../turns/throttled-status.ts';
import { runPlatform } from '../run-platform.ts';
import type { RunningPlatform } from '../running-platform.ts';
import { requireSettings } from '../setting-needs.ts';
import { createDiscordClient, createReplicaRest, discordRequestsPerSecond } from './discord-client.ts';
import type { DiscordContext } from './discord-context.ts';
import { checkDiscordFollowUps, discordSettingNeeds } from './discord-doctor.ts';
import { discordErrorMessages } from './discord-error-messages-en.ts';
import { createDiscordShards, shardLeases } from './discord-shards.ts';
import { type DiscordLimits, discordPlatform } from './discord-surfaces.ts';
import { postDiscordHandOff } from './hand-off-line.ts';
import { handleInteraction } from './handle-interaction.ts';
import { handleMessage } from './handle-message.ts';
import { reopenPrivateTurn } from './private-ask.ts';

export interface DiscordAdapterOptions extends DiscordLimits {
  /** How long `stop()` of this platform alone waits for its jobs (default 15 s; `ragent start` uses its own). */
  stopTimeoutMs?: number;
  /**
   * discord.js's client-side global REST limit of all replicas together (Discord's default for bots is
   * 50/s; the bench lifts it); each replica uses its share of it.
   */
  restGlobalRequestsPerSecond?: number;
  /** How often a replica looks again for a Discord shard to take or give up (default 2 s). */
  leaseIntervalMs?: number;
}

/** How often the replica's share of the REST limit is set again. */
const restShareRefreshMs = 5_000;

export async function startDiscord(
  services: Services,
  options: DiscordAdapterOptions = {},
): Promise<RunningPlatform> {
  const { config } = services;
  requireSettings(discordSettingNeeds(config));
  const logger = services.logger.child({ adapter: 'discord' });
  const { replicas } = services;
  const requestsPerSecond = options.restGlobalRequestsPerSecond ?? discordRequestsPerSecond;
  const rest = createReplicaRest(config, shareOf(requestsPerSecond, replicas.budgetShare()));
  const restShare = setInterval(
    () => rest.setRequestsPerSecond(shareOf(requestsPerSecond, replicas.budgetShare())),
    restShareRefreshMs,
  );
  restShare.unref();
  // Reaches recorded threads and posts through REST alone, whichever shard their guild is on.
  const restClient: Client = createDiscordClient(config, rest);
  const surfaces = { client: restClient, logger, messageContentIntent: config.discord.messageContentIntent };
  const platform = discordPlatform(surfaces, (turn) => reopenPrivateTurn(surfaces, turn), options);
  platform.handOff = {
    fallback: config.discord.handOff,
    post: (threadId, target) => postDiscordHandOff(restClient, threadId, target),
  };
  const turns = services.turns.attach(platform);
  const context: DiscordContext = { services, logger, turns, surfaces, isStopping: () => turns.stopping };

  const wire = (client: Client) => {
    client.on(Events.MessageCreate, (message) => {
      turns.track('handling a message', () => handleMessage(context, message));
    });
    client.on(Events.InteractionCreate, (interaction) => {
      turns.track('handling an interaction', () => handleInteraction(context, interaction));
    });
    client.on(Events.Error, (error) => logger.error({ err: error }, 'discord client error'));
    client.on(Events.Warn, (message) => logger.warn(message));
  };
  const leases = await replicas.openLeases(shardLeases).catch((error: unknown) => {
    clearInterval(restShare);
    rest.close();
    throw error;
  });
  const shards = createDiscordShards({
    config,
    logger,
    rest,
    leases,
    wire,
    ...(options.leaseIntervalMs ? { leaseIntervalMs: options.leaseIntervalMs } : {}),
  });
  return runPlatform({
    platform,
    label: 'Discord bot',
    turns,
    connect: async () => {
      await shards.start();
      return {
        user: shards.userTag(),
        shards: shards.held(),
        shardCount: config.discord.shards,
        messageContent: config.discord.messageContentIntent,
      };
    },
    // A failing database (the shard leases) keeps its own error: it says what to fix.
    connectFailure: {
      network: (reason) =>
        discordErrorMessages.NETWORK_UNREACHABLE({ reason, apiUrl: config.discord.apiUrl }),
      other: (reason) => discordErrorMessages.CONFIG_INVALID.connectFailed({ reason }),
    },
    warnings: checkDiscordFollowUps(config),
    stopTimeoutMs: options.stopTimeoutMs,
    // No stopTaking of its own: a replica that lost the shared database already handles no new
    // messages (the runner's claim refuses them); from a stop on, messages still arriving are told
    // the bot is restarting.
    // After the runner told the abandoned threads: they are told through this client.
    close: async () => {
      clearInterval(restShare);
      await shards.stop();
      await restClient.destroy();
      rest.close();
    },
  });
}

/**
 * The Discord shards this replica holds, each its own gateway connection: a discord.js client logged
 * in with `shards: [id]` and `shardCount: RAGENT_DISCORD_SHARDS` (guild events arrive on the shard
 * `(guild_id >> 22) % shardCount`, DMs on shard 0). Which shards, among replicas, is the core's
 * `holdPartitions` (core/held-partitions.ts): each shard is one lease.
 */
import { type Client, Events } from 'discord.js';
import type { Config } from '../../config.ts';
import { type HeldPartitions, holdPartitions } from '../../core/held-partitions.ts';
import type { LeaseKind, Leases } from '../../core/replicas.ts';
import type { Logger } from '../../logger.ts';
import { createDiscordClient, type ReplicaRest, sharedIdentifyThrottler } from './discord-client.ts';

/**
 * Discord's shards as leases among replicas: each shard is connected by one replica only. The two
 * numbers are the lock namespaces replicas have always used for them: fixed for good (see LeaseKind).
 */
export const shardLeases: LeaseKind = {
  description: 'a Discord shard',
  leaseNamespace: 72_617_010,
  memberNamespace: 72_617_011,
};

export interface DiscordShardsOptions {
  config: Config;
  logger: Logger;
  rest: ReplicaRest;
  leases: Leases;
  /** Wires the event handlers on a shard's new client. */
  wire(client: Client): void;
  /** How often leases are looked at again (default 2 s). */
  leaseIntervalMs?: number;
}

/** The shards as the core's held partitions, each a discord.js client. */
export interface DiscordShards extends HeldPartitions<Client> {
  /** The bot's user tag, once a shard is connected. */
  userTag(): string | undefined;
}

export function createDiscordShards(options: DiscordShardsOptions): DiscordShards {
  const { config, rest } = options;
  const identifyThrottler = sharedIdentifyThrottler();
  const partitions = holdPartitions<Client>({
    count: config.discord.shards,
    leases: options.leases,
    logger: options.logger,
    names: { one: 'discord shard', many: 'discord shards' },
    ...(options.leaseIntervalMs ? { intervalMs: options.leaseIntervalMs } : {}),
    connect: async (id, closedForGood) => {
      const client = createDiscordClient(config, rest, {
        id,
        count: config.discord.shards,
        identifyThrottler,
      });
      options.wire(client);
      // A shard Discord will not reconnect (invalid shard, intents refused): someone else may try it.
      client.on(Events.ShardDisconnect, closedForGood);
      const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
      try {
        await client.login(config.discord.token);
        await ready;
      } catch (error) {
        await client.destroy();
        throw error;
      }
      return client;
    },
    disconnect: (client) => client.destroy(),
  });
  return { ...partitions, userTag: () => partitions.connections().find((client) => client.user)?.user?.tag };
}

/**
 * The Discord shards this replica holds, each its own gateway connection: a discord.js client logged
 * in with `shards: [id]` and `shardCount: RAGENT_DISCORD_SHARDS` (guild events arrive on the shard
 * `(guild_id >> 22) % shardCount`, DMs on shard 0).
 *
 * A shard is held through a lease (a PostgreSQL session lock with DATABASE_URL; one process alone
 * holds them all). Every few seconds a replica looks again: it holds at most its fair part of the
 * shards (shard count / replicas taking part, rounded up), gives up the ones above it (so a replica
 * that joins gets its part) and takes free ones up to it. A standby holding none keeps trying, so when
 * a holder dies (its lock dies with its database session) another replica takes its shards within
 * seconds. Losing the lease connection gives every shard up at once: the lease went with it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, Events } from 'discord.js';
import type { Config } from '../../config.ts';
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

export interface DiscordShards {
  /**
   * The first round: takes the shards this replica may hold now and connects them (a standby may
   * hold none). Throws the first login failure (wrong token, Discord unreachable).
   */
  start(): Promise<void>;
  /** Shard ids held and connected now, ascending. */
  held(): number[];
  /** The bot's user tag, once a shard is connected. */
  userTag(): string | undefined;
  /** Stops looking, disconnects every shard and gives its lease up. */
  stop(): Promise<void>;
}

export function createDiscordShards(options: DiscordShardsOptions): DiscordShards {
  const { config, logger, rest, leases } = options;
  const shardCount = config.discord.shards;
  const intervalMs = options.leaseIntervalMs ?? 2_000;
  const clients = new Map<number, Client>();
  const identifyThrottler = sharedIdentifyThrottler();
  /** Bumped when every lease was lost at once: a connection begun before it is not kept. */
  let generation = 0;
  let stopped = false;
  const stopping = new AbortController();
  let looping: Promise<void> | undefined;
  let lastLogged: string | undefined;

  const logHeld = () => {
    const held = [...clients.keys()].sort((left, right) => left - right);
    const key = held.join(',');
    if (key === lastLogged) return;
    lastLogged = key;
    logger.info(
      { shards: held, shardCount },
      held.length > 0 ? 'discord shards held' : 'discord: no shard held (standby)',
    );
  };

  const connect = async (id: number): Promise<void> => {
    const began = generation;
    const client = createDiscordClient(config, rest, { id, count: shardCount, identifyThrottler });
    options.wire(client);
    // A shard Discord will not reconnect (invalid shard, intents refused): someone else may try it.
    client.on(Events.ShardDisconnect, () => {
      if (clients.get(id) === client) void giveUp(id, 'its gateway connection closed for good');
    });
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    try {
      await client.login(config.discord.token);
      await ready;
    } catch (error) {
      await client.destroy();
      throw error;
    }
    if (began !== generation || stopped) {
      // The lease was lost (or the adapter stopped) while connecting.
      await client.destroy();
      return;
    }
    clients.set(id, client);
  };

  const giveUp = async (id: number, why: string) => {
    const client = clients.get(id);
    if (!client) return;
    clients.delete(id);
    logger.info({ shard: id, why }, 'giving up a discord shard');
    // Disconnect first, then free the lease: never two replicas on one shard by our doing.
    await client.destroy().catch(() => {});
    await leases.release(id).catch(() => {});
    logHeld();
  };

  leases.onLost((error) => {
    generation++;
    const lost = [...clients.entries()];
    clients.clear();
    if (lost.length > 0) {
      logger.warn(
        { shards: lost.map(([id]) => id), error: error.message },
        'lost the lease of discord shards: disconnecting them',
      );
    }
    for (const [, client] of lost) void client.destroy().catch(() => {});
    logHeld();
  });

  /** One look: give up shards above the fair part, take free ones up to it. */
  const round = async (throwOnLoginFailure: boolean) => {
    const members = await leases.members();
    const fair = Math.ceil(shardCount / members);
    const extra = [...clients.keys()]
      .sort((left, right) => right - left)
      .slice(0, Math.max(0, clients.size - fair));
    for (const id of extra) await giveUp(id, `${members} replicas share ${shardCount} shards`);
    for (let id = 0; id < shardCount && clients.size < fair && !stopped; id++) {
      if (clients.has(id) || !(await leases.tryTake(id))) continue;
      try {
        await connect(id);
      } catch (error) {
        await leases.release(id).catch(() => {});
        if (throwOnLoginFailure) throw error;
        logger.error({ err: error, shard: id }, 'could not connect a discord shard; will try again');
        break;
      }
    }
    logHeld();
  };

  const loop = async () => {
    while (!stopped) {
      const woke = await sleep(intervalMs, true, { ref: false, signal: stopping.signal }).catch(() => false);
      if (!woke || stopped) break;
      try {
        await round(false);
      } catch (error) {
        logger.warn({ err: error }, 'could not look at the discord shard leases; will try again');
      }
    }
  };

  return {
    start: async () => {
      await round(true);
      // One process alone holds every shard for good: nothing to look at again.
      if (leases.shared) looping = loop();
    },
    held: () => [...clients.keys()].sort((left, right) => left - right),
    userTag: () => [...clients.values()].find((client) => client.user)?.user?.tag,
    stop: async () => {
      stopped = true;
      generation++;
      stopping.abort();
      await looping;
      const all = [...clients.values()];
      clients.clear();
      await Promise.allSettled(all.map((client) => client.destroy()));
      await leases.close();
    },
  };
}

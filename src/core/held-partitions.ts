/**
 * Partitions of a platform's events (Discord's shards: each its own gateway connection) held through
 * leases among replicas, so each partition is connected by exactly one replica.
 *
 * A partition is held through a lease (a PostgreSQL session lock with DATABASE_URL; one process alone
 * holds them all). Every few seconds a replica looks again: it holds at most its fair part of the
 * partitions (count / replicas taking part, rounded up), gives up the ones above it (so a replica
 * that joins gets its part) and takes free ones up to it. A standby holding none keeps trying, so when
 * a holder dies (its lock dies with its database session) another replica takes its partitions within
 * seconds. Losing the lease connection gives every partition up at once: the lease went with it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../logger.ts';
import type { Leases } from './replicas.ts';

export interface HeldPartitionsOptions<Connection> {
  count: number;
  leases: Leases;
  logger: Logger;
  /** What a partition is called in the log, one and many: `discord shard`, `discord shards`. */
  names: { one: string; many: string };
  /**
   * Connects partition `id`, resolving once it is ready; `closedForGood` is to be called when the
   * platform will not reconnect it (another replica may try it then). Throws when it cannot connect.
   */
  connect(id: number, closedForGood: () => void): Promise<Connection>;
  disconnect(connection: Connection): Promise<void>;
  /** How often leases are looked at again (default 2 s). */
  intervalMs?: number;
}

export interface HeldPartitions<Connection> {
  /**
   * The first round: takes the partitions this replica may hold now and connects them (a standby may
   * hold none). Throws the first connection failure (a wrong token, the platform unreachable).
   */
  start(): Promise<void>;
  /** Partition ids held and connected now, ascending. */
  held(): number[];
  connections(): Connection[];
  /** Stops looking, disconnects every partition and gives its lease up. */
  stop(): Promise<void>;
}

export function holdPartitions<Connection>(
  options: HeldPartitionsOptions<Connection>,
): HeldPartitions<Connection> {
  const { count, leases, logger, names } = options;
  const intervalMs = options.intervalMs ?? 2_000;
  const connections = new Map<number, Connection>();
  /** Bumped when every lease was lost at once: a connection begun before it is not kept. */
  let generation = 0;
  let stopped = false;
  const stopping = new AbortController();
  let looping: Promise<void> | undefined;
  let lastLogged: string | undefined;
  const held = () => [...connections.keys()].sort((left, right) => left - right);

  const logHeld = () => {
    const ids = held();
    const key = ids.join(',');
    if (key === lastLogged) return;
    lastLogged = key;
    logger.info(
      { held: ids, count },
      ids.length > 0 ? `${names.many} held` : `no ${names.one} held (standby)`,
    );
  };

  const giveUp = async (id: number, why: string) => {
    const connection = connections.get(id);
    if (connection === undefined) return;
    connections.delete(id);
    logger.info({ partition: id, why }, `giving up a ${names.one}`);
    // Disconnect first, then free the lease: never two replicas on one partition by our doing.
    await options.disconnect(connection).catch(() => {});
    await leases.release(id).catch(() => {});
    logHeld();
  };

  const connect = async (id: number): Promise<void> => {
    const began = generation;
    let connection: Connection | undefined;
    connection = await options.connect(id, () => {
      if (connection !== undefined && connections.get(id) === connection)
        void giveUp(id, 'its connection closed for good');
    });
    if (began !== generation || stopped) {
      // The lease was lost (or everything stopped) while connecting.
      await options.disconnect(connection);
      return;
    }
    connections.set(id, connection);
  };

  leases.onLost((error) => {
    generation++;
    const lost = [...connections.entries()];
    connections.clear();
    if (lost.length > 0) {
      logger.warn(
        { partitions: lost.map(([id]) => id), error: error.message },
        `lost the lease of ${names.many}: disconnecting them`,
      );
    }
    for (const [, connection] of lost) void options.disconnect(connection).catch(() => {});
    logHeld();
  });

  /** One look: give up partitions above the fair part, take free ones up to it. */
  const round = async (throwOnFailure: boolean) => {
    const members = await leases.members();
    const fair = Math.ceil(count / members);
    const extra = held()
      .reverse()
      .slice(0, Math.max(0, connections.size - fair));
    for (const id of extra) await giveUp(id, `${members} replicas share ${count} ${names.many}`);
    for (let id = 0; id < count && connections.size < fair && !stopped; id++) {
      if (connections.has(id) || !(await leases.tryTake(id))) continue;
      try {
        await connect(id);
      } catch (error) {
        await leases.release(id).catch(() => {});
        if (throwOnFailure) throw error;
        logger.error({ err: error, partition: id }, `could not connect a ${names.one}; will try again`);
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
        logger.warn({ err: error }, `could not look at the ${names.one} leases; will try again`);
      }
    }
  };

  return {
    start: async () => {
      await round(true);
      // One process alone holds every partition for good: nothing to look at again.
      if (leases.shared) looping = loop();
    },
    held,
    connections: () => [...connections.values()],
    stop: async () => {
      stopped = true;
      generation++;
      stopping.abort();
      await looping;
      const all = [...connections.values()];
      connections.clear();
      await Promise.allSettled(all.map((connection) => options.disconnect(connection)));
      await leases.close();
    },
  };
}

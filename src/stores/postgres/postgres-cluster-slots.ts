/**
 * Cluster-wide model-call slots (RAGENT_LLM_CLUSTER_CONCURRENCY) as session advisory locks on the lock
 * pool: a call tries each slot once (from a random one, so replicas spread out), holds the connection of
 * the slot it got until the call ends, and otherwise gives its connection back and waits with a growing,
 * jittered backoff — waiting never holds a connection. A slot dies with its session, so a crashed replica
 * frees its slots at once. Fairness within a replica is the fair limiter's; across replicas, every waiter
 * retries at most every `maxBackoffMs`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import type { ClusterSlots } from '../../core/replicas.ts';
import type { Logger } from '../../logger.ts';
import { lockNamespace } from './migrations.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

export interface PostgresClusterSlotsOptions {
  slots: number;
  logger: Logger;
  /** First wait after every slot was taken (default 25 ms), doubling up to `maxBackoffMs` (default 400 ms). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export function createPostgresClusterSlots(
  database: PostgresDatabase,
  options: PostgresClusterSlotsOptions,
): ClusterSlots {
  const { slots, logger } = options;
  const minBackoffMs = options.minBackoffMs ?? 25;
  const maxBackoffMs = options.maxBackoffMs ?? 400;

  /** One pass over the slots: the connection and slot taken, or undefined when all are busy. */
  const tryOnce = async (): Promise<{ client: pg.PoolClient; slot: number } | undefined> => {
    const client = await withDatabase(database, 'take a model-call slot', () => database.lockPool.connect());
    // A held connection that fails emits on the client (not the pool): unhandled, that ends the process.
    client.on('error', ignoreError);
    const start = Math.floor(Math.random() * slots);
    try {
      for (let step = 0; step < slots; step++) {
        const slot = (start + step) % slots;
        const { rows } = await client.query<{ taken: boolean }>(
          'SELECT pg_try_advisory_lock($1, $2) AS taken',
          [lockNamespace.llmSlot, slot],
        );
        if (rows[0]?.taken) return { client, slot };
      }
    } catch (error) {
      client.off('error', ignoreError);
      client.release(error as Error);
      throw error;
    }
    client.off('error', ignoreError);
    client.release();
    return undefined;
  };

  return {
    acquire: async ({ signal, onWait } = {}) => {
      let backoff = minBackoffMs;
      let waited = false;
      for (;;) {
        signal?.throwIfAborted();
        const taken = await tryOnce();
        if (taken) {
          if (signal?.aborted) {
            await unlock(taken.client, taken.slot, logger);
            signal.throwIfAborted();
          }
          let released = false;
          return () => {
            if (released) return;
            released = true;
            void unlock(taken.client, taken.slot, logger);
          };
        }
        if (!waited) {
          waited = true;
          onWait?.();
        }
        await sleep(backoff * (0.5 + Math.random()), undefined, signal ? { signal } : {}).catch(
          (error: unknown) => {
            signal?.throwIfAborted();
            throw error;
          },
        );
        backoff = Math.min(maxBackoffMs, backoff * 2);
      }
    },
  };
}

/** The slot ends with its session if the connection fails while held; the unlock then fails and drops it. */
function ignoreError(): void {}

async function unlock(client: pg.PoolClient, slot: number, logger: Logger): Promise<void> {
  try {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [lockNamespace.llmSlot, slot]);
    client.off('error', ignoreError);
    client.release();
  } catch (error) {
    client.off('error', ignoreError);
    // A connection whose lock state is unknown is thrown away (its session, and the slot, end with it).
    logger.warn(
      { error: (error as Error).message, slot },
      'could not free a model-call slot; closing its connection',
    );
    client.release(error as Error);
  }
}

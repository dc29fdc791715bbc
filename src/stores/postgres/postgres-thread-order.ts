/**
 * Per-thread order across replicas, on the turn rows themselves (`ragent_turns_in_flight`, migration
 * 4). An answer turn is begun 'opening' with its thread and the platform's timestamp (its position);
 * once acknowledged it is queued with what another replica needs to answer it, and runs when it is
 * its thread's oldest turn and no other turn of the thread runs (`ragent_order_turn`, one round trip,
 * under the thread's transaction lock). Ending a turn deletes its row and notifies
 * `ragent_thread_free`; a waiting turn looks again when its thread is notified (one LISTEN connection
 * per replica) or, failing that, every `retryMs`.
 *
 * Turns of a dead replica keep their place: its running and opening turns block the thread until a
 * sweeper tells them "ask again" and ends them; its queued ones are adopted and answered in order.
 * No connection is held while a turn runs, so a replica runs as many threads at once as it likes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { OrderedRun, OrderedTurn, ThreadOrderEvents } from '../../core/coordination-store.ts';
import { type PostgresDatabase, withDatabase } from './open-database.ts';

/** The notification channel of threads whose turn ended (payload: the thread id). */
export const threadFreeChannel = 'ragent_thread_free';

export interface PostgresThreadOrder {
  run<Result>(
    turn: OrderedTurn,
    work: () => Promise<Result>,
    events?: ThreadOrderEvents,
  ): Promise<OrderedRun<Result>>;
  /** Stops listening; turns still waiting are left (`taken-over`). */
  close(): Promise<void>;
}

export interface PostgresThreadOrderOptions {
  /** How often a waiting turn looks again without a notification (default 1 s). */
  retryMs?: number;
}

interface Wake {
  woken: Promise<void>;
  cancel(): void;
}

export function createPostgresThreadOrder(
  database: PostgresDatabase,
  options: PostgresThreadOrderOptions = {},
): PostgresThreadOrder {
  const retryMs = options.retryMs ?? 1_000;
  const waiters = new Map<string, Set<() => void>>();
  let lost = false;
  let closed = false;
  let listener: pg.Client | undefined;
  let listening: Promise<void> | undefined;

  const wake = (threadId: string) => {
    for (const resolve of waiters.get(threadId) ?? []) resolve();
  };
  const wakeAll = () => {
    for (const threadId of waiters.keys()) wake(threadId);
  };
  database.onLost(() => {
    lost = true;
    wakeAll();
  });

  /** One LISTEN connection, opened at the first wait and again after it was lost. */
  const listen = (): Promise<void> => {
    if (closed || lost) return Promise.resolve();
    listening ??= (async () => {
      const client = new pg.Client({
        connectionString: database.url,
        connectionTimeoutMillis: 10_000,
        application_name: `ragent ${database.replicaId}`.slice(0, 63),
      });
      client.on('error', () => {});
      client.on('notification', (message) => {
        if (message.payload) wake(message.payload);
      });
      client.on('end', () => {
        if (listener === client) listener = undefined;
        listening = undefined;
        // Whatever was notified meanwhile is missed: every waiter looks again.
        wakeAll();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${threadFreeChannel}`);
        listener = client;
        if (closed) await client.end();
      } catch {
        // Waiters fall back to looking every retryMs; the next wait tries to listen again.
        listening = undefined;
        await client.end().catch(() => {});
      }
    })();
    return listening;
  };

  /** Registered before the look, so a notification between the look and the wait is not missed. */
  const waitFor = (threadId: string): Wake => {
    let resolve!: () => void;
    const woken = new Promise<void>((done) => {
      resolve = done;
    });
    const set = waiters.get(threadId) ?? new Set();
    set.add(resolve);
    waiters.set(threadId, set);
    return {
      woken,
      cancel: () => {
        set.delete(resolve);
        if (set.size === 0 && waiters.get(threadId) === set) waiters.delete(threadId);
      },
    };
  };

  const order = async (turn: OrderedTurn, first: boolean) => {
    const { rows } = await withDatabase(database, 'queue a turn', () =>
      database.pool.query<{ turn_state: 'queued' | 'running'; turns_ahead: number }>({
        name: 'ragent-order-turn',
        text: 'SELECT turn_state, turns_ahead FROM ragent_order_turn($1, $2, $3, $4)',
        values: [
          turn.key,
          database.incarnation,
          first ? JSON.stringify(turn.location) : null,
          first ? JSON.stringify(turn.answer) : null,
        ],
      }),
    );
    return rows[0];
  };

  return {
    async run(turn, work, events = {}) {
      if (lost || !database.isAlive()) return { ran: false, reason: 'lost' };
      const { signal } = events;
      // A stop that gives up on the turn while it waits wakes it at once.
      const onAbort = () => wake(turn.thread.threadId);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await listen();
        let first = true;
        let told = false;
        for (;;) {
          if (signal?.aborted) return { ran: false, reason: 'released' };
          const wakeUp = waitFor(turn.thread.threadId);
          try {
            let state: Awaited<ReturnType<typeof order>>;
            try {
              state = await order(turn, first);
            } catch (error) {
              if (lost) return { ran: false, reason: 'lost' };
              if (!told) events.onStoreError?.(error, first ? 'queue the turn' : 'take the turn');
              told = true;
              // Never a silent thread: a turn that could not even be queued runs unordered.
              if (first) return { ran: true, result: await work() };
              state = { turn_state: 'queued', turns_ahead: 1 };
            }
            if (!state) return { ran: false, reason: 'taken-over' };
            if (state.turn_state === 'running') {
              wakeUp.cancel();
              signal?.removeEventListener('abort', onAbort);
              return { ran: true, result: await work() };
            }
            if (first) events.onQueued?.(state.turns_ahead);
            first = false;
            if (!listener) void listen();
            await Promise.race([wakeUp.woken, sleep(retryMs, undefined, { ref: false })]);
            if (lost) return { ran: false, reason: 'lost' };
            if (closed) return { ran: false, reason: 'taken-over' };
          } finally {
            wakeUp.cancel();
          }
        }
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      closed = true;
      wakeAll();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => {});
    },
  };
}

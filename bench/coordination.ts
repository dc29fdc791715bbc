/**
 * npm run bench:coordination
 * Coordination overhead per turn on PostgreSQL, the turn runner's calls: claim the event and record the
 * turn with its thread (one statement), run it in thread order (queue + take, one statement), end it
 * (one statement: delete, and wake the thread if another turn of it waits) — with an empty turn, so only
 * the round trips count. Two replicas on one database; turns spread over threads.
 * Uses BENCH_DATABASE_URL when set, else starts a throwaway PostgreSQL (as the tests do).
 * Options: BENCH_TURNS (default 400), BENCH_THREADS (50), BENCH_CONCURRENCY (8).
 */
import pg from 'pg';
import { openDatabase } from '../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../src/stores/postgres/postgres-coordination-store.ts';
import { startPostgresServer } from '../test/support/postgres-server.ts';

const turns = Number(process.env.BENCH_TURNS ?? 400);
const threads = Number(process.env.BENCH_THREADS ?? 50);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function main(): Promise<void> {
  const server = process.env.BENCH_DATABASE_URL ? undefined : await startPostgresServer();
  let url = process.env.BENCH_DATABASE_URL ?? '';
  if (server) {
    console.log(`throwaway PostgreSQL started in ${server.startMilliseconds} ms`);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    url = server.url.replace(/\/postgres$/, '/bench');
  }
  try {
    await measure(url);
  } finally {
    await server?.stop();
  }
}

async function measure(url: string): Promise<void> {
  const replicas = await Promise.all(
    ['bench-a', 'bench-b'].map(async (replicaId) => {
      const database = await openDatabase({ url, poolSize: concurrency + 2, replicaId });
      return { database, store: createPostgresCoordinationStore(database) };
    }),
  );
  const run = Date.now();
  const oneTurn = async (turn: number): Promise<number> => {
    const { store } = replicas[Math.abs(turn) % replicas.length]!;
    const key = `bench:${run}:${turn}`;
    const threadId = `slack:T:C:${Math.abs(turn) % threads}`;
    const started = performance.now();
    const thread = { threadId, position: String(turn) };
    const record = { key, platform: 'slack', kind: 'answer' as const, location: { channel: 'C' }, thread };
    if (!(await store.claimAndBeginTurn?.(record))) throw new Error('a fresh key was already claimed');
    const ordered = await store.runInThreadOrder?.(
      {
        key,
        thread,
        location: { channel: 'C', placeholderTs: '1.0' },
        answer: { text: 'q', place: { threadId, scopes: ['shared'], user: 'U' }, reference: key },
      },
      async () => {},
    );
    if (!ordered?.ran) throw new Error('the turn did not run');
    await store.endTurn(key);
    return performance.now() - started;
  };
  // Warm-up: connections opened, statements planned.
  for (let turn = 0; turn < 20; turn++) await oneTurn(-1 - turn);

  const roundTrip: number[] = [];
  for (let probe = 0; probe < 200; probe++) {
    const started = performance.now();
    await replicas[0]!.database.pool.query('SELECT 1');
    roundTrip.push(performance.now() - started);
  }
  const sequential: number[] = [];
  for (let turn = 0; turn < turns; turn++) sequential.push(await oneTurn(turn));
  const concurrent: number[] = [];
  let next = turns;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < 2 * turns) concurrent.push(await oneTurn(next++));
    }),
  );
  const line = (label: string, values: number[]) =>
    console.log(
      `${label}: p50 ${percentile(values, 0.5).toFixed(2)} ms, p95 ${percentile(values, 0.95).toFixed(2)} ms, p99 ${percentile(values, 0.99).toFixed(2)} ms (${values.length} turns)`,
    );
  line('one round trip (SELECT 1)', roundTrip);
  console.log('round trips per turn: claim+begin 1, queue+take 1, end 1 = 3 (8 before)');
  line('coordination per turn, one at a time', sequential);
  line(`coordination per turn, ${concurrency} at a time over ${threads} threads`, concurrent);
  await Promise.all(replicas.map(({ store }) => store.close()));
  await Promise.all(replicas.map(({ database }) => database.close()));
}

await main();

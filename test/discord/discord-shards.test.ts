/**
 * Discord shards leased among replicas: two replicas (each its own services, database pools and
 * replica id, on one real PostgreSQL) with RAGENT_DISCORD_SHARDS=2, the real discord.js clients
 * against the fake gateway, which routes guild events by `(guild_id >> 22) % 2` and DMs to shard 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import { type AppServices, createServices } from '../../src/main.ts';
import { shardLeases } from '../../src/platforms/discord/discord-shards.ts';
import { startDiscord } from '../../src/platforms/discord/start-discord.ts';
import type { RunningPlatform } from '../../src/platforms/running-platform.ts';
import {
  type FakeDiscord,
  fakeApplicationId,
  fakeBotToken,
  startFakeDiscord,
} from '../fakes/fake-discord.ts';
import type { FakeMessage } from '../fakes/fake-discord-payloads.ts';
import { type FakeOllama, startFakeOllama } from '../fakes/fake-ollama.ts';
import { scriptByRole } from '../support/model-roles.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { testEnvironment } from '../support/test-services.ts';
import { defaultScripts } from './discord-harness.ts';

interface Replica {
  id: string;
  services: AppServices;
  adapter: RunningPlatform;
  /** What it logged, one parsed JSON object a line. */
  logs: Array<Record<string, unknown>>;
  dataDir: string;
}

let url: string;
let discord: FakeDiscord;
let ollama: FakeOllama;
const replicas: Replica[] = [];

beforeEach(async () => {
  url = await createTestDatabase();
  discord = await startFakeDiscord();
  ollama = await startFakeOllama({ chat: scriptByRole({ ...defaultScripts }) });
});

afterEach(async () => {
  for (const replica of replicas.splice(0)) {
    await replica.adapter.stop().catch(() => {});
    await replica.services.close().catch(() => {});
    rmSync(replica.dataDir, { recursive: true, force: true });
  }
  await discord.close();
  await ollama.close();
});

async function startReplica(id: string, shards = 2): Promise<Replica> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `ragent-shards-${id}-`));
  const environment = testEnvironment({
    ollamaUrl: ollama.url,
    dataDir,
    environment: {
      DATABASE_URL: url,
      RAGENT_REPLICA_ID: id,
      RAGENT_DISCORD_SHARDS: String(shards),
      DISCORD_TOKEN: fakeBotToken,
      DISCORD_APPLICATION_ID: fakeApplicationId,
      DISCORD_API_URL: discord.apiUrl,
      RAGENT_ANSWER_TIMEOUT_S: '20',
      RAGENT_NODE_TIMEOUT_S: '10',
      OLLAMA_TIMEOUT_S: '5',
    },
  });
  const config = loadConfig(environment, { envFile: false });
  const logs: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const services = await createServices(config, logger);
  const adapter = await startDiscord(services, {
    progressIntervalMs: 20,
    textIntervalMs: 50,
    stopTimeoutMs: 5_000,
    leaseIntervalMs: 100,
  });
  const replica = { id, services, adapter, logs, dataDir };
  replicas.push(replica);
  return replica;
}

/** Which replica holds which shard lease, read from PostgreSQL itself. */
async function shardHolders(): Promise<Record<number, string>> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ shard: number; holder: string }>(
      `SELECT lock.objid::int AS shard, activity.application_name AS holder
       FROM pg_locks lock JOIN pg_stat_activity activity ON activity.pid = lock.pid
       WHERE lock.locktype = 'advisory' AND lock.granted AND lock.classid = $1::oid AND lock.objsubid = 2`,
      [shardLeases.leaseNamespace],
    );
    return Object.fromEntries(rows.map((row) => [row.shard, row.holder.replace(/^ragent /, '')]));
  } finally {
    await admin.end();
  }
}

/** Ends every database session of a replica, as if its machine died (the process here lives on). */
async function terminateSessions(replica: Replica): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1`,
      [`ragent ${replica.id}`],
    );
  } finally {
    await admin.end();
  }
}

/** The replicas that ran a turn in the thread ending in `threadSuffix` (their 'turn done' log lines). */
function ranTurn(threadSuffix: string): string[] {
  return replicas
    .filter((replica) =>
      replica.logs.some(
        (line) =>
          line.msg === 'turn done' &&
          typeof line.threadId === 'string' &&
          line.threadId.endsWith(threadSuffix),
      ),
    )
    .map((replica) => replica.id);
}

/** Waits for a replica to log the turn done (it logs after delivering), then says which did. */
async function answeredBy(threadSuffix: string): Promise<string[]> {
  await discord.waitFor(() => ranTurn(threadSuffix).length > 0, 10_000, `the turn in ${threadSuffix}`);
  return ranTurn(threadSuffix);
}

function botMessages(channelId: string): FakeMessage[] {
  return discord.channelMessages(channelId).filter((message) => message.author.id === discord.bot.id);
}

/** Waits for the answer in `channelId` (no progress left) and returns the bot's messages there. */
function answered(channelId: string): Promise<FakeMessage[]> {
  return discord.waitFor(
    () => {
      const messages = botMessages(channelId);
      const busy = messages.some(
        (message) => message.content.startsWith('⏳') || message.content.endsWith('✍️ writing…'),
      );
      return messages.length > 0 && !busy ? messages : undefined;
    },
    20_000,
    `the answer in ${channelId}`,
  );
}

/** Mentions the bot in a guild channel; resolves with the thread the bot answered in. */
async function mentionAndWait(channelId: string, text: string): Promise<string> {
  const message = discord.postMessage({ channelId, content: text, mentionBot: true });
  await answered(message.id);
  return message.id;
}

describe('Discord shards across replicas', () => {
  it('shares the shards out, answers each guild on its shard once, and fails a shard over when its holder dies', async () => {
    const first = discord.addGuild('on shard 0', { shard: [0, 2] });
    const second = discord.addGuild('on shard 1', { shard: [1, 2] });
    // Alone, a replica holds every shard (its second identify waits Discord's 5 s between identifies).
    const a = await startReplica('a');
    expect(await shardHolders()).toEqual({ 0: 'a', 1: 'a' });
    const b = await startReplica('b');
    // With two, a gives its shard above its part (shard 1) up, and b takes it.
    await waitUntil(async () => JSON.stringify(await shardHolders()) === JSON.stringify({ 0: 'a', 1: 'b' }));
    await discord.waitFor(() => discord.shardSessions(0) === 1 && discord.shardSessions(1) === 1);

    const inFirst = await mentionAndWait(first.channelId, 'what is on shard zero?');
    const inSecond = await mentionAndWait(second.channelId, 'what is on shard one?');
    expect(await answeredBy(inFirst)).toEqual(['a']);
    expect(await answeredBy(inSecond)).toEqual(['b']);

    // A DM arrives on shard 0: its holder answers it.
    const direct = discord.postDirectMessage({ content: 'a private question' });
    await answered(direct.channel_id);
    expect(await answeredBy(direct.channel_id)).toEqual(['a']);

    // b's database sessions end: its shard lease dies with them, and a takes shard 1 over.
    await terminateSessions(b);
    await waitUntil(async () => JSON.stringify(await shardHolders()) === JSON.stringify({ 0: 'a', 1: 'a' }));
    await connectedTo(a, [0, 1]);
    const afterFailover = await mentionAndWait(second.channelId, 'still there on shard one?');
    expect(await answeredBy(afterFailover)).toEqual(['a']);
    expect(discord.shardSessions(1)).toBe(1);

    // A later answer in each guild is the barrier: no thread got a second answer meanwhile.
    await mentionAndWait(first.channelId, 'barrier on shard zero');
    await mentionAndWait(second.channelId, 'barrier on shard one');
    for (const thread of [inFirst, inSecond, afterFailover, direct.channel_id]) {
      expect(botMessages(thread)).toHaveLength(1);
    }
    expect(a.logs.some((line) => line.msg === 'discord shards held')).toBe(true);
  }, 60_000);

  it('keeps a standby that takes the one shard within moments of its holder going', async () => {
    const guild = discord.addGuild('one shard');
    const a = await startReplica('a', 1);
    const b = await startReplica('b', 1);
    expect(await shardHolders()).toEqual({ 0: 'a' });
    expect(b.logs.some((line) => line.msg === 'no discord shard held (standby)')).toBe(true);
    const before = await mentionAndWait(guild.channelId, 'who answers?');
    expect(await answeredBy(before)).toEqual(['a']);

    // A graceful stop gives the shard up; the standby takes it and answers the next mention.
    await a.adapter.stop();
    await waitUntil(async () => (await shardHolders())[0] === 'b');
    await connectedTo(b, [0]);
    const after = await mentionAndWait(guild.channelId, 'and now?');
    expect(await answeredBy(after)).toEqual(['b']);
  }, 60_000);
  it('gives its shards up when its lease connection is lost, and takes them again on a new one', async () => {
    const guild = discord.addGuild('one shard');
    const a = await startReplica('a', 1);
    expect(await shardHolders()).toEqual({ 0: 'a' });
    // Only the lease connection ends (its liveness and pools stay up).
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(lock.pid) FROM pg_locks lock
       WHERE lock.locktype = 'advisory' AND lock.classid = $1::oid AND lock.objsubid = 2`,
      [shardLeases.leaseNamespace],
    );
    await admin.end();
    await discord.waitFor(() =>
      a.logs.some((line) => line.msg === 'lost the lease of discord shards: disconnecting them'),
    );
    await waitUntil(async () => (await shardHolders())[0] === 'a');
    await connectedTo(a, [0]);
    const after = await mentionAndWait(guild.channelId, 'back again?');
    expect(await answeredBy(after)).toEqual(['a']);
    expect(discord.shardSessions(0)).toBe(1);
  }, 60_000);
});

/**
 * Waits until the replica logged that it holds exactly `shards`, connected (a lease is taken before
 * its gateway session is ready: an event sent in between reaches no one, as on Discord).
 */
function connectedTo(replica: Replica, shards: number[]): Promise<unknown> {
  return discord.waitFor(
    () => {
      const last = replica.logs.filter((line) => /^(no )?discord shards? held/.test(String(line.msg))).at(-1);
      return JSON.stringify(last?.held) === JSON.stringify(shards);
    },
    20_000,
    `${replica.id} connected to shards ${shards.join(', ')}`,
  );
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the shard leases');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type PlatformName,
  planPlatforms,
  type StartBotDependencies,
  startBot,
} from '../../../src/adapters/cli/start-bot.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Services } from '../../../src/core/services.ts';
import { RagentError } from '../../../src/errors.ts';
import { createLogger } from '../../../src/logger.ts';
import type { RunningPlatform } from '../../../src/platforms/running-platform.ts';
import { openDatabase } from '../../../src/stores/postgres/open-database.ts';
import { createPostgresCoordinationStore } from '../../../src/stores/postgres/postgres-coordination-store.ts';
import { openSqliteCoordinationStore } from '../../../src/stores/sqlite-coordination-store.ts';
import { createTurnRunner } from '../../../src/turns/turn-runner.ts';
import { createTestDatabase } from '../../support/postgres-database.ts';
import {
  answerJob,
  heldConversations,
  inMemoryTurnHistory,
  noIngestion,
  testPlatform,
} from '../../support/turn-ports.ts';

const slackBot = 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx';
const slackApp = 'xapp-1-A0123456789-1234567890123-0123456789abcdef';
const discordToken = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB';

let dataDir: string;
beforeAll(async () => {
  dataDir = path.join(await mkdtemp(path.join(tmpdir(), 'ragent-start-')), 'data');
});
afterAll(async () => {
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

const configFor = (environment: Record<string, string>) =>
  loadConfig({ RAGENT_DATA_DIR: dataDir, ...environment }, { envFile: false });
const bothPlatforms = { SLACK_BOT_TOKEN: slackBot, SLACK_APP_TOKEN: slackApp, DISCORD_TOKEN: discordToken };

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A running adapter that records its phases; `disconnect` waits until the test lets it (or fails). */
function controllableAdapter(name: string, events: string[]) {
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const adapter: RunningPlatform = {
    name,
    stopTaking: async () => {
      events.push(`${name}: stop taking`);
    },
    disconnect: async () => {
      await finished;
      events.push(`${name}: disconnected`);
    },
    stop: async () => {
      throw new Error('startBot stops in phases, never with stop()');
    },
  };
  return { adapter, finish };
}

/**
 * Everything startBot needs: services with the REAL turn runner on a real coordination store (so
 * the order of the stop — drain, notices, disconnect, stores last — is the real one), platforms that
 * record what happens to them, and conversations the test answers.
 */
function harness(environment: Record<string, string>, overrides: Partial<StartBotDependencies> = {}) {
  const events: string[] = [];
  const logLines: string[] = [];
  const signals = new EventEmitter();
  const exits: number[] = [];
  const storeDir = mkdtempSync(path.join(tmpdir(), 'ragent-start-store-'));
  const store = openSqliteCoordinationStore(storeDir);
  const conversations = heldConversations();
  const config = configFor(environment);
  const logger = createLogger({
    level: 'info',
    secrets: config.secrets,
    destination: { write: (line: string) => void logLines.push(line) },
  });
  const turns = createTurnRunner({
    turnHistory: inMemoryTurnHistory(),
    store,
    conversations,
    ingestion: noIngestion,
    logger,
    answerTimeoutMs: 60_000,
    acknowledgementWaitMs: 0,
    noticeTimeoutMs: 1_000,
  });
  const services = {
    turns,
    coordination: store,
    close: async () => {
      await store.close();
      events.push('services closed');
    },
  } as unknown as Services;
  const adapters = {
    slack: controllableAdapter('slack', events),
    discord: controllableAdapter('discord', events),
  };
  const dependencies: StartBotDependencies = {
    config,
    logger,
    createServices: async () => {
      events.push('services created');
      return services;
    },
    platforms: {
      slack: async (given) => {
        expect(given).toBe(services);
        events.push('slack started');
        return adapters.slack.adapter;
      },
      discord: async (given) => {
        expect(given).toBe(services);
        events.push('discord started');
        return adapters.discord.adapter;
      },
    },
    signals,
    exit: (code) => void exits.push(code),
    drainTimeoutMs: 5_000,
    ...overrides,
  };
  /** A platform of the runner with an answer in flight (its events are recorded). */
  const answering = async (name: string) => {
    const platform = testPlatform(name);
    turns.attach(platform).answer(answerJob(platform, `${name}-event`));
    await vi.waitFor(() =>
      expect(conversations.requests.some((request) => request.threadId === `test:${name}-event`)).toBe(true),
    );
    return platform;
  };
  const cleanup = () => rmSync(storeDir, { recursive: true, force: true });
  cleanups.push(async () => {
    await store.close();
    cleanup();
  });
  return {
    events,
    logLines,
    signals,
    exits,
    adapters,
    dependencies,
    conversations,
    answering,
    storeDir,
    cleanup,
  };
}

describe('planPlatforms', () => {
  it.each<[Record<string, string>, PlatformName[], number]>([
    [{}, [], 0],
    [{ SLACK_BOT_TOKEN: slackBot, SLACK_APP_TOKEN: slackApp }, ['slack'], 0],
    [{ SLACK_BOT_TOKEN: slackBot, SLACK_SIGNING_SECRET: 'f'.repeat(32) }, ['slack'], 0],
    [{ SLACK_BOT_TOKEN: slackBot }, [], 1],
    [{ SLACK_APP_TOKEN: slackApp, DISCORD_TOKEN: discordToken }, ['discord'], 1],
    [{ DISCORD_APPLICATION_ID: '123456789012345678' }, [], 1],
    [bothPlatforms, ['slack', 'discord'], 0],
  ])('plans %j', (environment, start, incomplete) => {
    const plan = planPlatforms(configFor(environment));
    expect(plan.start).toEqual(start);
    expect(plan.incomplete).toHaveLength(incomplete);
  });
});

describe('startBot', () => {
  it('builds nothing when no platform is configured', async () => {
    const { events, dependencies } = harness({});
    const result = await startBot(dependencies);
    expect(result).toEqual({ status: 'no-platform', plan: { start: [], incomplete: [] } });
    expect(events).toEqual([]);
  });

  it('starts every configured platform with the shared services and logs it without secrets', async () => {
    const { events, logLines, signals, adapters, dependencies } = harness(bothPlatforms);
    const result = await startBot(dependencies);
    expect(result.status).toBe('running');
    if (result.status !== 'running') return;
    expect(result.platforms).toEqual(['slack', 'discord']);
    expect(events).toEqual(['services created', 'slack started', 'discord started']);
    await expect(stat(dataDir)).resolves.toMatchObject({});
    expect(signals.listenerCount('SIGTERM')).toBe(1);

    adapters.slack.finish();
    adapters.discord.finish();
    await result.stop();
    const log = logLines.join('');
    expect(log).toContain('"msg":"ragent started"');
    expect(log).toContain('"platforms":["slack","discord"]');
    for (const secret of [slackBot, slackApp, discordToken]) expect(log).not.toContain(secret);
  });

  it('on SIGTERM stops taking events, lets the answer in flight finish, then disconnects, stores last', async () => {
    const base = harness(bothPlatforms);
    const { events, logLines, signals, adapters, dependencies, conversations } = base;
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    const platform = await base.answering('chat');
    adapters.slack.finish();
    adapters.discord.finish();
    signals.emit('SIGTERM', 'SIGTERM');
    await vi.waitFor(() => expect(events).toContain('discord: stop taking'));
    expect(events.slice(3)).toEqual(['slack: stop taking', 'discord: stop taking']);
    // Draining: nothing disconnected or closed while the answer is in flight.
    conversations.answerNext();
    await expect(result.stopped).resolves.toBe(0);
    expect(platform.replies()).toEqual(['answer']);
    expect(events.slice(5)).toEqual(['slack: disconnected', 'discord: disconnected', 'services closed']);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
    expect(logLines.join('')).toContain('"msg":"ragent stopped"');
  });

  it('bounds the drain, tells the abandoned thread, and closes the stores last, exiting 0', async () => {
    const base = harness(bothPlatforms, { drainTimeoutMs: 20 });
    const { events, signals, adapters, dependencies } = base;
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    const platform = await base.answering('chat');
    adapters.slack.finish();
    adapters.discord.finish();
    signals.emit('SIGINT', 'SIGINT');
    await expect(result.stopped).resolves.toBe(0);
    expect(platform.replies()).toEqual(['shutting-down']);
    expect(events.at(-1)).toBe('services closed');
    const next = openSqliteCoordinationStore(base.storeDir);
    expect(await next.adoptOrphanedTurns('chat')).toEqual([]);
    await next.close();
  });

  it('with the platform gone before the stop: no notice can go out, the stores still close last, exit 0, the next start tells the thread', async () => {
    const base = harness(bothPlatforms, { drainTimeoutMs: 20 });
    const { events, signals, adapters, dependencies, conversations, logLines } = base;
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    const platform = await base.answering('chat');
    platform.gone = true;
    adapters.slack.finish();
    adapters.discord.finish();
    signals.emit('SIGTERM', 'SIGTERM');
    await expect(result.stopped).resolves.toBe(0);
    expect(events.at(-1)).toBe('services closed');
    // The answer finishes after the stores closed: nothing throws, nothing is posted.
    conversations.answerNext();
    await new Promise((resolve) => setImmediate(resolve));
    expect(platform.replies()).toEqual([]);
    expect(logLines.join('')).not.toContain('database connection is not open');
    const next = openSqliteCoordinationStore(base.storeDir);
    expect((await next.adoptOrphanedTurns('chat')).map((turn) => turn.key)).toEqual(['chat-event']);
    await next.close();
  });

  it('a platform whose disconnect fails does not keep the stores open', async () => {
    const base = harness(bothPlatforms);
    const { events, signals, adapters, dependencies } = base;
    adapters.slack.adapter.disconnect = () => Promise.reject(new Error('socket already closed'));
    adapters.discord.finish();
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    signals.emit('SIGTERM', 'SIGTERM');
    await expect(result.stopped).resolves.toBe(0);
    expect(events.slice(-2)).toEqual(['discord: disconnected', 'services closed']);
  });

  it('exits at once on a second signal', async () => {
    const { signals, exits, adapters, dependencies } = harness(bothPlatforms);
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    signals.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([]);
    signals.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([130]);
    adapters.slack.finish();
    adapters.discord.finish();
    await result.stopped;
  });

  it('on a full disk says DISK_FULL naming the data directory, not an unexpected error', async () => {
    const base = harness(bothPlatforms);
    const failure = startBot({
      ...base.dependencies,
      createServices: async () => {
        // What better-sqlite3 throws opening the checkpoints' WAL on a full disk.
        throw new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_SHMSIZE');
      },
    });
    await expect(failure).rejects.toMatchObject({ code: 'DISK_FULL' });
    await expect(failure).rejects.toThrow(dataDir);
    expect(base.events).toEqual([]);
  });

  it('stops the started platforms and closes the services when one fails to start', async () => {
    const failure = new RagentError('INVALID_INPUT', 'Slack rejected the token. Copy it again.');
    const base = harness(bothPlatforms);
    const { events, dependencies, adapters } = base;
    adapters.discord.finish();
    const platforms = dependencies.platforms;
    if (!platforms) throw new Error('expected platforms');
    await expect(
      startBot({ ...dependencies, platforms: { ...platforms, slack: () => Promise.reject(failure) } }),
    ).rejects.toBe(failure);
    expect(events).toEqual([
      'services created',
      'discord started',
      'discord: stop taking',
      'discord: disconnected',
      'services closed',
    ]);
    expect(base.signals.listenerCount('SIGINT')).toBe(0);
  });

  it('logs a platform that could not be reached in one line with the cause, without a stack', async () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const failure = new RagentError('NETWORK_UNREACHABLE', 'Could not reach Slack (connection refused).', {
      cause,
      details: { reason: 'connection refused: nothing is listening there', networkCode: 'ECONNREFUSED' },
    });
    const base = harness(bothPlatforms);
    base.adapters.discord.finish();
    const platforms = base.dependencies.platforms;
    if (!platforms) throw new Error('expected platforms');
    await expect(
      startBot({ ...base.dependencies, platforms: { ...platforms, slack: () => Promise.reject(failure) } }),
    ).rejects.toBe(failure);
    const [line, ...others] = base.logLines.filter((entry) => entry.includes('failed to start'));
    expect(others).toEqual([]);
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      code: 'NETWORK_UNREACHABLE',
      networkCode: 'ECONNREFUSED',
      msg: expect.stringContaining('Could not reach Slack (connection refused).'),
    });
    expect(line).not.toContain('stack');
    expect(line?.length).toBeLessThan(600);
  });

  it('stops right after start-up when a signal arrived while starting', async () => {
    const base = harness({ DISCORD_TOKEN: discordToken });
    base.adapters.discord.finish();
    const platforms = base.dependencies.platforms;
    const startDiscord = platforms?.discord;
    if (!platforms || !startDiscord) throw new Error('expected platforms');
    const result = await startBot({
      ...base.dependencies,
      platforms: {
        ...platforms,
        discord: async (services) => {
          base.signals.emit('SIGTERM', 'SIGTERM');
          return startDiscord(services);
        },
      },
    });
    if (result.status !== 'running') throw new Error('expected the bot to run');
    await expect(result.stopped).resolves.toBe(0);
    expect(base.events.slice(-3)).toEqual([
      'discord: stop taking',
      'discord: disconnected',
      'services closed',
    ]);
    expect(base.exits).toEqual([]);
  });

  it('a replica that lost its database stops taking work, finishes its answer in flight and exits 1', async () => {
    const url = await createTestDatabase();
    const database = await openDatabase({ url, poolSize: 2, replicaId: 'lost-replica' });
    const store = createPostgresCoordinationStore(database);
    cleanups.push(async () => {
      await store.close();
      await database.close();
    });
    const conversations = heldConversations();
    const base = harness({ DISCORD_TOKEN: discordToken });
    const logger = createLogger({ level: 'silent' });
    const turns = createTurnRunner({
      turnHistory: inMemoryTurnHistory(),
      store,
      conversations,
      ingestion: noIngestion,
      logger,
      answerTimeoutMs: 60_000,
    });
    const services = {
      turns,
      coordination: store,
      close: async () => {
        base.events.push('services closed');
      },
    } as unknown as Services;
    base.adapters.discord.finish();
    const result = await startBot({
      ...base.dependencies,
      createServices: async () => services,
      platforms: {
        slack: async () => base.adapters.slack.adapter,
        discord: async () => base.adapters.discord.adapter,
      },
    });
    if (result.status !== 'running') throw new Error('expected the bot to run');
    const platform = testPlatform('discord');
    turns.attach(platform).answer(answerJob(platform, 'in-flight'));
    await vi.waitFor(() => expect(conversations.requests).toHaveLength(1));

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'ragent lost-replica'`,
    );
    await admin.end();
    await vi.waitFor(() => expect(base.events).toContain('discord: stop taking'));
    conversations.answerNext();
    await expect(result.stopped).resolves.toBe(1);
    expect(platform.replies()).toEqual(['answer']);
    expect(base.events.slice(-3)).toEqual([
      'discord: stop taking',
      'discord: disconnected',
      'services closed',
    ]);
  });
});

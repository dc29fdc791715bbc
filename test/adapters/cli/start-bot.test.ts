import { EventEmitter } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type PlatformName,
  planPlatforms,
  type StartBotDependencies,
  startBot,
} from '../../../src/adapters/cli/start-bot.ts';
import type { RunningAdapter } from '../../../src/adapters/running-adapter.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Services } from '../../../src/core/services.ts';
import { RagentError } from '../../../src/errors.ts';
import { createLogger } from '../../../src/logger.ts';

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

/** A running adapter whose stop() the test controls. */
function controllableAdapter(name: string, events: string[]) {
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const adapter: RunningAdapter = {
    name,
    stop: async () => {
      events.push(`${name}: stop requested`);
      await finished;
      events.push(`${name}: stopped`);
    },
  };
  return { adapter, finish };
}

/** Everything startBot needs, with services and platforms that record what happens to them. */
function harness(environment: Record<string, string>, overrides: Partial<StartBotDependencies> = {}) {
  const events: string[] = [];
  const logLines: string[] = [];
  const signals = new EventEmitter();
  const exits: number[] = [];
  const services = {
    close: async () => {
      events.push('services closed');
    },
  } as unknown as Services;
  const adapters = {
    slack: controllableAdapter('slack', events),
    discord: controllableAdapter('discord', events),
  };
  const config = configFor(environment);
  const dependencies: StartBotDependencies = {
    config,
    logger: createLogger({
      level: 'info',
      secrets: config.secrets,
      destination: { write: (line: string) => void logLines.push(line) },
    }),
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
  return { events, logLines, signals, exits, adapters, dependencies };
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

  it('on SIGTERM stops taking work, waits for work in flight, then closes the services', async () => {
    const { events, logLines, signals, adapters, dependencies } = harness(bothPlatforms);
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    signals.emit('SIGTERM', 'SIGTERM');
    await Promise.resolve();
    expect(events.slice(3)).toEqual(['slack: stop requested', 'discord: stop requested']);
    adapters.discord.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).not.toContain('services closed');
    adapters.slack.finish();
    await expect(result.stopped).resolves.toBe(0);
    expect(events.slice(-1)).toEqual(['services closed']);
    expect(events.indexOf('services closed')).toBeGreaterThan(events.indexOf('slack: stopped'));
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
    expect(logLines.join('')).toContain('"msg":"ragent stopped"');
  });

  it('bounds the wait for work in flight and still closes the services', async () => {
    const { events, signals, dependencies } = harness(bothPlatforms, { drainTimeoutMs: 50 });
    const result = await startBot(dependencies);
    if (result.status !== 'running') throw new Error('expected the bot to run');
    signals.emit('SIGINT', 'SIGINT');
    await expect(result.stopped).resolves.toBe(1);
    expect(events).toContain('services closed');
    expect(events).not.toContain('slack: stopped');
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
      'discord: stop requested',
      'discord: stopped',
      'services closed',
    ]);
    expect(base.signals.listenerCount('SIGINT')).toBe(0);
  });

  it('stops right after start-up when a signal arrived while starting', async () => {
    const base = harness({ DISCORD_TOKEN: discordToken });
    base.adapters.discord.finish();
    const platforms = base.dependencies.platforms;
    if (!platforms) throw new Error('expected platforms');
    const result = await startBot({
      ...base.dependencies,
      platforms: {
        ...platforms,
        discord: async (services) => {
          base.signals.emit('SIGTERM', 'SIGTERM');
          return platforms.discord(services);
        },
      },
    });
    if (result.status !== 'running') throw new Error('expected the bot to run');
    await expect(result.stopped).resolves.toBe(0);
    expect(base.events.slice(-3)).toEqual(['discord: stop requested', 'discord: stopped', 'services closed']);
    expect(base.exits).toEqual([]);
  });
});

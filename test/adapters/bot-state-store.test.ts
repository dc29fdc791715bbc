import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStateStore, type TurnInFlight } from '../../src/adapters/shared/bot-state-store.ts';
import { recordTurn, tellUnfinishedTurns } from '../../src/adapters/shared/turns-in-flight.ts';
import { createLogger } from '../../src/logger.ts';

describe('bot state store', () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  const temporary = () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'ragent-bot-state-'));
    directories.push(directory);
    return directory;
  };

  it('claims an event once, also after reopening', () => {
    const directory = temporary();
    const store = openBotStateStore(directory);
    expect(store.claimEvent('slack:Ev1')).toBe(true);
    expect(store.claimEvent('slack:Ev1')).toBe(false);
    store.close();
    const reopened = openBotStateStore(directory);
    expect(reopened.claimEvent('slack:Ev1')).toBe(false);
    expect(reopened.claimEvent('slack:Ev2')).toBe(true);
    reopened.close();
  });

  it('keeps one vote per user and answer, the latest', () => {
    const store = openBotStateStore(temporary());
    const base = {
      threadId: 'slack:T1:C1:1.0',
      answerId: 'a1',
      user: 'U1',
      at: '2026-11-30T00:00:00Z',
    } as const;
    store.recordFeedback({ ...base, value: 'up' });
    store.recordFeedback({ ...base, value: 'down', at: '2026-11-30T00:01:00Z' });
    store.recordFeedback({ ...base, user: 'U2', value: 'up' });
    expect(store.listFeedback('slack:T1:C1:1.0').map((entry) => [entry.user, entry.value])).toEqual([
      ['U2', 'up'],
      ['U1', 'down'],
    ]);
    expect(store.listFeedback('other')).toEqual([]);
    store.close();
  });

  it('keeps the turns in flight across a reopen, per platform, with their latest location', () => {
    const directory = temporary();
    const store = openBotStateStore(directory);
    const slackTurn = recordTurn(store, {
      key: 'slack:T1:C1:1.0',
      platform: 'slack',
      location: { channel: 'C1', threadTs: '1.0' },
      startedAt: 1,
    });
    slackTurn.moved({ channel: 'C1', threadTs: '1.0', placeholderTs: '1.1' });
    recordTurn(store, {
      key: 'slack:T1:C1:2.0',
      platform: 'slack',
      location: { channel: 'C1' },
      startedAt: 2,
    }).end();
    recordTurn(store, {
      key: 'discord:message:9',
      platform: 'discord',
      location: { channelId: '9' },
      startedAt: 3,
    });
    store.close();
    // Ending after the store closed (a turn a graceful stop gave up on) neither throws nor forgets it.
    slackTurn.end();

    const reopened = openBotStateStore(directory);
    expect(reopened.unfinishedTurns('slack')).toEqual([
      {
        key: 'slack:T1:C1:1.0',
        platform: 'slack',
        kind: 'answer',
        location: { channel: 'C1', threadTs: '1.0', placeholderTs: '1.1' },
        startedAt: 1,
      },
    ]);
    expect(reopened.unfinishedTurns('discord').map((turn) => turn.key)).toEqual(['discord:message:9']);
    reopened.close();
  });

  it('tells each unfinished turn once, and forgets it even when telling fails', async () => {
    const store = openBotStateStore(temporary());
    for (const [index, channel] of ['C1', 'gone', 'C2'].entries())
      store.beginTurn({ key: `k${index}`, platform: 'slack', location: { channel }, startedAt: index });
    store.beginTurn({ key: 'd', platform: 'discord', location: { channelId: '1' }, startedAt: 0 });
    const told: string[] = [];
    const tell = async ({ location }: TurnInFlight) => {
      if (location.channel === 'gone') throw new Error('channel_not_found');
      told.push(location.channel ?? '');
    };
    const logger = createLogger({ level: 'silent' });
    expect(await tellUnfinishedTurns({ store, platform: 'slack', logger, tell })).toBe(2);
    expect(told).toEqual(['C1', 'C2']);
    expect(await tellUnfinishedTurns({ store, platform: 'slack', logger, tell })).toBe(0);
    expect(store.unfinishedTurns('discord')).toHaveLength(1);
    store.close();
  });

  it('records ingests in flight apart from answers, and tells each with its kind', async () => {
    const store = openBotStateStore(temporary());
    recordTurn(store, { key: 'answer', platform: 'slack', location: { channel: 'C1' }, startedAt: 1 });
    const ingest = recordTurn(store, {
      key: 'ingest',
      platform: 'slack',
      kind: 'ingest',
      location: { channel: 'C1', file: 'a.pdf' },
      startedAt: 2,
    });
    ingest.moved({ channel: 'C1', file: 'b.pdf' });
    const told: Array<[string, string | undefined]> = [];
    const tell = async (turn: TurnInFlight) => {
      told.push([turn.kind, turn.location.file]);
    };
    await tellUnfinishedTurns({ store, platform: 'slack', logger: createLogger({ level: 'silent' }), tell });
    expect(told).toEqual([
      ['answer', undefined],
      ['ingest', 'b.pdf'],
    ]);
    store.close();
  });

  it('migrates a bot.sqlite made before ingests were recorded: its turns are answers', () => {
    const directory = temporary();
    const old = new Database(path.join(directory, 'bot.sqlite'));
    old.exec(`CREATE TABLE turns_in_flight (
      key TEXT PRIMARY KEY, platform TEXT NOT NULL, location TEXT NOT NULL, started_at INTEGER NOT NULL)`);
    old
      .prepare('INSERT INTO turns_in_flight VALUES (?, ?, ?, ?)')
      .run('old', 'discord', '{"channelId":"7"}', 5);
    old.close();

    const store = openBotStateStore(directory);
    store.beginTurn({
      key: 'new',
      platform: 'discord',
      kind: 'ingest',
      location: { channelId: '8' },
      startedAt: 6,
    });
    store.close();
    // Opening it again (the column now exists) changes nothing.
    const reopened = openBotStateStore(directory);
    expect(reopened.unfinishedTurns('discord')).toEqual([
      { key: 'old', platform: 'discord', kind: 'answer', location: { channelId: '7' }, startedAt: 5 },
      { key: 'new', platform: 'discord', kind: 'ingest', location: { channelId: '8' }, startedAt: 6 },
    ]);
    reopened.close();
  });
});

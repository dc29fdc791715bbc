import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBotStateStore } from '../../src/adapters/shared/bot-state-store.ts';

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
});

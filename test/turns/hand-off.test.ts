/**
 * The hand-off decision on the real SQLite stores: who (the channel's own target, else the platform's
 * default), once per thread a day (two replicas racing post once), never in a direct message, and what a
 * failure at each step does — a claim that cannot be stored still hands off, a line that cannot be
 * posted is not recorded, a record that cannot be written leaves the line posted.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import type { TurnHistory } from '../../src/core/turn-history.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { openSqliteTurnHistory } from '../../src/stores/sqlite-turn-history.ts';
import {
  type HandOffRequest,
  type HandOffStores,
  handOff,
  setHandOffTarget,
} from '../../src/turns/hand-off.ts';

const channel = 'chat:W1:C1';
const logger = createLogger({ level: 'silent' });

describe('hand-off to a person', () => {
  let directory: string;
  let store: CoordinationStore;
  let history: TurnHistory;
  let posted: Array<[string, string]>;
  let stores: HandOffStores;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'ragent-hand-off-'));
    store = openSqliteCoordinationStore(directory);
    history = openSqliteTurnHistory(directory);
    posted = [];
    stores = { claims: store, settings: store, turnHistory: history, logger };
  });
  afterEach(async () => {
    await store.close();
    await history.close();
    await rm(directory, { recursive: true, force: true });
  });

  const request = (threadId: string, overrides: Partial<HandOffRequest> = {}): HandOffRequest => ({
    platform: 'chat',
    threadId,
    channel,
    fallback: 'G-DEFAULT',
    scopes: [channel],
    user: 'U1',
    question: 'where do I park?',
    why: 'not-found',
    post: async (target) => {
      posted.push([threadId, target]);
    },
    now: new Date('2026-12-02T10:00:00Z'),
    ...overrides,
  });

  it('mentions the channel’s own target over the default, once per thread a day, even when raced', async () => {
    expect(await handOff(stores, request('chat:W1:C1:1'))).toEqual({
      kind: 'handed-off',
      target: 'G-DEFAULT',
    });
    await setHandOffTarget(store, channel, 'G-ONCALL');
    const raced = await Promise.all([
      handOff(stores, request('chat:W1:C1:2')),
      handOff(stores, request('chat:W1:C1:2', { why: 'thumbs-down' })),
    ]);
    expect(raced.map((outcome) => outcome.kind).sort()).toEqual(['already', 'handed-off']);
    expect(await handOff(stores, request('chat:W1:C1:1', { why: 'asked' }))).toEqual({ kind: 'already' });
    // The next day, the same thread may be handed off again.
    const tomorrow = new Date('2026-12-03T10:00:00Z');
    expect((await handOff(stores, request('chat:W1:C1:1', { now: tomorrow }))).kind).toBe('handed-off');
    await setHandOffTarget(store, channel, null);
    expect((await handOff(stores, request('chat:W1:C1:3'))).kind).toBe('handed-off');
    expect(posted).toEqual([
      ['chat:W1:C1:1', 'G-DEFAULT'],
      ['chat:W1:C1:2', 'G-ONCALL'],
      ['chat:W1:C1:1', 'G-ONCALL'],
      ['chat:W1:C1:3', 'G-DEFAULT'],
    ]);
    const recorded = (await history.listTurns()).filter((turn) => turn.outcome === 'handed-off');
    expect(recorded).toHaveLength(4);
    expect(recorded[0]).toMatchObject({ question: 'where do I park?', durationMs: 0, user: 'U1' });
  });

  it('hands off nobody without a target, and never in a direct message', async () => {
    expect(await handOff(stores, request('chat:W1:C1:4', { fallback: undefined }))).toEqual({
      kind: 'no-target',
    });
    expect(await handOff(stores, request('chat:W1:D1:5', { channel: 'chat:W1' }))).toEqual({
      kind: 'no-target',
    });
    expect(posted).toEqual([]);
  });

  it('survives a failure at each step', async () => {
    // The claim cannot be stored: a person asked twice beats nobody asked.
    const failingClaims = {
      ...stores,
      claims: {
        claimEvent: async () => Promise.reject(new Error('database is locked')),
        releaseEvent: async () => {},
      },
    };
    expect((await handOff(failingClaims, request('chat:W1:C1:6'))).kind).toBe('handed-off');
    // The line cannot be posted: the error reaches the caller, nothing is recorded as handed off.
    const failingPost = request('chat:W1:C1:7', { post: () => Promise.reject(new Error('HTTP 500')) });
    await expect(handOff(stores, failingPost)).rejects.toThrow('HTTP 500');
    // … and its claim is released: the next press hands the thread off, not "already handed off".
    expect((await handOff(stores, request('chat:W1:C1:7'))).kind).toBe('handed-off');
    // The record cannot be written: the line stays posted, the hand-off still happened.
    const failingHistory = {
      ...stores,
      turnHistory: { recordTurn: () => Promise.reject(new Error('disk full')) },
    };
    expect((await handOff(failingHistory, request('chat:W1:C1:8'))).kind).toBe('handed-off');
    expect(posted.map(([thread]) => thread)).toEqual(['chat:W1:C1:6', 'chat:W1:C1:7', 'chat:W1:C1:8']);
    const recorded = (await history.listTurns()).map((turn) => turn.threadId);
    expect(recorded).toEqual(['chat:W1:C1:6', 'chat:W1:C1:7']);
  });
});

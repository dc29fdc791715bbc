/**
 * Who may share a private answer, and how often: the rules of `claimShare` over the real SQLite
 * coordination store (the same ports run against PostgreSQL in the Slack replica test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import {
  claimShare,
  privateAskerOf,
  privateThreadId,
  shareableForMs,
} from '../../src/turns/private-answers.ts';

describe('private answers: sharing', () => {
  let directory: string;
  let store: CoordinationStore;
  const asker = { platform: 'chat', workspace: 'W1', channel: 'C:1', user: 'U1' };
  const at = Date.parse('2026-12-01T10:00:00Z');

  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-private-'));
    store = openSqliteCoordinationStore(directory);
    await store.recordAnswer({
      answerId: 'A1',
      threadId: privateThreadId(asker),
      question: 'How do loops work?',
      answer: 'Loops repeat [1].',
      sources: [{ docId: 'd1', file: 'loops.pdf', pages: [3, 3], text: 'Loops repeat.' } as never],
      at: new Date(at).toISOString(),
    });
    await store.recordAnswer({
      answerId: 'PUBLIC',
      threadId: 'chat:W1:C:1:1700000000.000100',
      question: 'In a thread',
      answer: 'Public.',
      sources: [],
      at: new Date(at).toISOString(),
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const request = (fields: Partial<Parameters<typeof claimShare>[1]> = {}) => ({
    platform: 'chat',
    workspace: 'W1',
    user: 'U1',
    answerId: 'A1',
    now: at + 60_000,
    ...fields,
  });

  it('reads the asker back from the private thread id, parts with ":" included', () => {
    expect(privateAskerOf(privateThreadId(asker))).toEqual(asker);
    expect(privateAskerOf('chat:W1:C1:1700000000.000100')).toBeUndefined();
  });

  it('lets the asker share once, with the answer as delivered (numbered sources kept)', async () => {
    const first = await claimShare(store, request());
    expect(first).toMatchObject({
      kind: 'share',
      shared: {
        asker,
        question: 'How do loops work?',
        answer: { id: 'A1', body: 'Loops repeat [1].', citesByNumber: true },
      },
    });
    expect(await claimShare(store, request())).toEqual({ kind: 'already-shared' });
  });

  it('refuses someone else, another workspace, a public answer and an answer older than a day', async () => {
    expect(await claimShare(store, request({ user: 'U2' }))).toEqual({ kind: 'not-yours' });
    expect(await claimShare(store, request({ workspace: 'W2' }))).toEqual({ kind: 'gone' });
    expect(await claimShare(store, request({ platform: 'other' }))).toEqual({ kind: 'gone' });
    expect(await claimShare(store, request({ answerId: 'PUBLIC' }))).toEqual({ kind: 'gone' });
    expect(await claimShare(store, request({ now: at + shareableForMs + 1 }))).toEqual({ kind: 'gone' });
    // None of those used up the one share.
    expect(await claimShare(store, request())).toMatchObject({ kind: 'share' });
  });
});

/**
 * Slack refuses a section over 3,000 characters, more than 50 blocks, and about 12,000 characters of
 * block text in one message. Whatever the input (long names, many files, long error texts, a long
 * answer with many sources), what the adapter sends fits, and a refused block falls back to a plain
 * message. Through the real Web API client against the fake, which enforces those limits.
 */
import { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestFileState } from '../../src/core/chat-platform.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { openIngestSurface, slackPlatform } from '../../src/platforms/slack/slack-surfaces.ts';
import { PlaceRefusals } from '../../src/replies/place-refusals.ts';
import { type FakeSlackApi, type FakeSlackMessage, startFakeSlackApi } from '../fakes/fake-slack-api.ts';
import { makeAnswer } from '../support/make-answer.ts';

const channel = 'C0GENERAL';

describe('Slack: every message within Slack’s block limits', () => {
  let slack: FakeSlackApi;
  afterEach(async () => {
    await slack?.close();
  });

  async function surfaces() {
    slack = await startFakeSlackApi();
    const client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    return {
      client,
      logger: createLogger({ level: 'silent' }),
      refusals: new PlaceRefusals(),
    };
  }

  const longName = (index: number) =>
    `${'quarterly-report-of-the-infrastructure-team-'.repeat(6)}${index}.pdf`;
  const files = (state: (name: string, index: number) => IngestFileState): IngestFileState[] =>
    Array.from({ length: 10 }, (_, index) => state(longName(index), index));
  const failed = (name: string): IngestFileState => ({
    name,
    state: 'failed',
    error: new RagentError(
      'PDF_CORRUPT',
      `${name} could not be read: ${'the cross-reference table is broken. '.repeat(20)}`,
    ),
  });
  const added = (name: string): IngestFileState => ({
    name,
    state: 'added',
    seconds: 3,
    report: {
      status: 'ingested',
      seconds: 3,
      document: {
        id: 'd1',
        name,
        scope: 'slack:T1',
        pages: 12,
        bytes: 1_000,
        parents: 4,
        children: 40,
        uploader: 'UALICE',
        ingestedAt: '2026-01-01T00:00:00Z',
        embeddingModel: null,
      },
    },
  });

  const last = (messages: FakeSlackMessage[]) => messages.at(-1);

  it('shows the progress and result of 10 files with long names and long errors', async () => {
    const where = await surfaces();
    const surface = await openIngestSurface(where, { channel }, 'UALICE', {
      kind: 'ingest',
      files: files((name) => ({ name, state: 'waiting' })),
    });
    await surface.showStatus({
      kind: 'ingest',
      files: files((name, index) => (index % 2 ? failed(name) : added(name))),
    });
    const progress = last(slack.messages(channel));
    expect(progress?.updates).toBe(1);
    expect(JSON.stringify(progress?.blocks)).toContain(':x:');

    await surface.finish({
      kind: 'ingest-result',
      files: files((name) => failed(name)),
      reference: 'ref-1',
    });
    const result = last(slack.messages(channel));
    expect(result?.updates).toBe(2);
    expect(JSON.stringify(result?.blocks)).toContain('ref-1');
  });

  it('tells a restarted ingest of many long-named files', async () => {
    const where = await surfaces();
    const platform = slackPlatform(where, { statusThrottleMs: 10, progressEditsPerMinute: 50 });
    const surface = await platform.reopen({
      key: 'k',
      platform: 'slack',
      kind: 'ingest',
      owner: 'gone',
      location: { channel },
      startedAt: 0,
    });
    const names = Array.from({ length: 30 }, (_, index) => longName(index));
    await surface.finish({
      kind: 'interrupted-ingest',
      ingest: { file: names[0]!, added: [], notAdded: names },
    });
    expect(slack.messages(channel)).toHaveLength(1);
    expect(JSON.stringify(last(slack.messages(channel))?.blocks)).toContain('quarterly-report');
  });

  it('delivers a long answer with many sources', async () => {
    const where = await surfaces();
    const platform = slackPlatform(where, { statusThrottleMs: 10, progressEditsPerMinute: 50 });
    const surface = await platform.reopen({
      key: 'k',
      platform: 'slack',
      kind: 'answer',
      owner: 'gone',
      location: { channel, threadTs: '1.0' },
      startedAt: 0,
    });
    const body = `${'Loops repeat commands until a condition holds. '.repeat(24)}\n\n`.repeat(9);
    // One part under the old 11,000-character split, plus a full sources line: about 13,500 in all.
    expect(body.length).toBeGreaterThan(10_000);
    const sources = Array.from({ length: 120 }, (_, index) => ({
      file: `${longName(index)}`,
      docId: `d${index}`,
      pages: [index + 1, index + 2] as [number, number],
    }));
    await surface.finish({ kind: 'answer', answer: makeAnswer(body, sources), threadId: 'slack:T:C:1.0' });
    const messages = slack.messages(channel, '1.0');
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((message) => message.blocks.length > 0)).toBe(true);
    expect(JSON.stringify(last(messages)?.blocks)).toContain('ragent_feedback');
  });

  it('falls back to a plain message when Slack refuses the blocks', async () => {
    const where = await surfaces();
    const surface = await openIngestSurface(where, { channel }, 'UALICE', {
      kind: 'ingest',
      files: [{ name: 'a.pdf', state: 'waiting' }],
    });
    for (const code of ['invalid_blocks', 'msg_blocks_too_long']) {
      slack.refuseBlocks(code);
      await surface.showStatus({ kind: 'ingest', files: [failed('a.pdf')] });
      const progress = last(slack.messages(channel));
      expect(progress?.text).toContain('could not be read');
      expect(progress?.blocks).toEqual([]);
      slack.refuseBlocks(undefined);
      await surface.showStatus({ kind: 'ingest', files: [{ name: 'a.pdf', state: 'downloading' }] });
    }
    slack.refuseBlocks('msg_blocks_too_long');
    await surface.finish({ kind: 'answer', answer: makeAnswer('The answer.'), threadId: 'slack:T:C:1.0' });
    expect(last(slack.messages(channel))?.text).toContain('The answer.');
  });
});

/**
 * An ingest's record can outlive its posted result when forgetting it failed (a full disk). The next
 * start must not replace that ✗/✓ result with a false "restarted while ingesting"; an ingest really cut
 * short still gets the notice. The real turn runner and SQLite store, Slack through the real client.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { openIngestSurface, slackPlatform } from '../../src/platforms/slack/slack-surfaces.ts';
import { PlaceRefusals } from '../../src/replies/place-refusals.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import { createTurnRunner } from '../../src/turns/turn-runner.ts';
import { type FakeSlackApi, startFakeSlackApi } from '../fakes/fake-slack-api.ts';
import { heldConversations, inMemoryTurnHistory, noIngestion } from '../support/turn-ports.ts';

const channel = 'C0GENERAL';

describe('Slack: an ingest record left after its result', () => {
  let slack: FakeSlackApi | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await slack?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('keeps a posted result, and tells an ingest that was really cut short', async () => {
    slack = await startFakeSlackApi();
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-ingest-record-'));
    const client = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
    });
    const logger = createLogger({ level: 'silent' });
    const surfaces = {
      client,
      logger,
      refusals: new PlaceRefusals(),
    };

    // Two ingests of a process that is gone: one posted its ✗ result, one was cut short mid-file.
    const finished = await openIngestSurface(surfaces, { channel }, 'UALICE', {
      kind: 'ingest',
      files: [{ name: 'a.pdf', state: 'waiting' }],
    });
    await finished.finish({
      kind: 'ingest-result',
      files: [
        { name: 'a.pdf', state: 'failed', error: new RagentError('DISK_FULL', "The server's disk is full.") },
      ],
      reference: 'ev1 C0GENERAL/1.0',
    });
    const cut = await openIngestSurface(surfaces, { channel }, 'UALICE', {
      kind: 'ingest',
      files: [{ name: 'b.pdf', state: 'downloading' }],
    });
    const gone = openSqliteCoordinationStore(directory);
    for (const [key, surface] of [
      ['finished', finished],
      ['cut', cut],
    ] as const) {
      await gone.beginTurn({
        key,
        platform: 'slack',
        kind: 'ingest',
        location: {
          ...surface.location,
          file: key === 'finished' ? 'a.pdf' : 'b.pdf',
          added: '[]',
          notAdded: '[]',
        },
      });
    }
    await gone.close();

    const store = openSqliteCoordinationStore(directory);
    const turns = createTurnRunner({
      turnHistory: inMemoryTurnHistory(),
      store,
      conversations: heldConversations(),
      ingestion: noIngestion,
      logger,
      answerTimeoutMs: 60_000,
    });
    const platform = turns.attach(
      slackPlatform(surfaces, { statusThrottleMs: 10, progressEditsPerMinute: 50 }),
    );
    await platform.tellOrphans();
    const [result, progress] = slack.messages(channel);
    expect(result?.text).toContain("The server's disk is full.");
    expect(result?.text).not.toContain('restarted');
    expect(progress?.text).toContain('restarted while ingesting');
    expect(await store.adoptOrphanedTurns('slack')).toEqual([]);
    await turns.stop(1_000);
    await store.close();
  });
});

/**
 * Two Slack replicas (HTTP mode) on one PostgreSQL, as composed by `src/main.ts`, behind one fake
 * Slack: a delivery and its retry landing on different replicas are answered once, and a thread's
 * follow-up landing on the other replica is answered there, after the first, with the first in its
 * history (the checkpoints are shared).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type SlackAdapter, startSlack } from '../../src/platforms/slack/start-slack.ts';
import { createSlackEventSender, type SlackEventSender } from '../fakes/fake-slack-events.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';
import {
  defaultChannel,
  freePort,
  type SlackHarness,
  signingSecret,
  startSlackHarness,
} from './slack-harness.ts';

describe('Slack with two replicas on PostgreSQL', () => {
  let harness: SlackHarness;
  let other: { services: TestServices; adapter: SlackAdapter; sender: SlackEventSender };
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    harness = await startSlackHarness({
      environment: { DATABASE_URL: databaseUrl, RAGENT_REPLICA_ID: 'replica-a' },
    });
    const port = await freePort();
    const services = await createTestServices({
      ollamaUrl: harness.ollama.url,
      environment: {
        SLACK_BOT_TOKEN: harness.slack.botToken,
        SLACK_API_URL: harness.slack.apiUrl,
        SLACK_PORT: String(port),
        SLACK_SIGNING_SECRET: signingSecret,
        RAGENT_EMBEDDINGS: 'none',
        DATABASE_URL: databaseUrl,
        RAGENT_REPLICA_ID: 'replica-b',
      },
    });
    const adapter = await startSlack(services, {
      statusThrottleMs: 20,
      textIntervalMs: 50,
      progressEditsPerMinute: 6_000,
      retryConfig: { retries: 3, minTimeout: 10, maxTimeout: 50 },
      // Long enough that only the turn record can release an acknowledgement in these tests.
      acknowledgementHoldMs: 60_000,
    });
    other = {
      services,
      adapter,
      sender: createSlackEventSender(`http://127.0.0.1:${port}/slack/events`, signingSecret),
    };
  });

  afterAll(async () => {
    await other?.adapter.stop();
    await other?.services.dispose();
    await harness?.close();
  });

  const postsIn = (ts: string) =>
    harness.slack.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === ts);

  it('answers once when a retry lands on the other replica', async () => {
    const { ts, envelope } = harness.mentionEnvelope('How do while loops work?');
    const deliveries = await Promise.all([
      harness.sender.event(envelope),
      other.sender.event(envelope, { retryNum: 1 }),
    ]);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200]);
    await harness.waitForReply(defaultChannel, ts);
    await harness.barrier();
    expect(postsIn(ts)).toHaveLength(1);
  });

  it('answers a follow-up that lands on the other replica after the first, in the same thread', async () => {
    const first = harness.mentionEnvelope('How do for loops work?');
    const followUp = harness.mentionEnvelope('And how do they end?', { threadTs: first.ts });
    await harness.sender.event(first.envelope);
    await other.sender.event(followUp.envelope);
    const replies = await harness.waitForReply(defaultChannel, first.ts, 2);
    expect(replies).toHaveLength(2);
    await harness.barrier();
    expect(postsIn(first.ts)).toHaveLength(2);
    // The follow-up ran once the first had finished: its first model call (the query rewriter) has the
    // first question in the conversation it was given.
    const followUpCalls = harness.ollama
      .chatRequests()
      .map((request) => JSON.stringify(request.messages))
      .filter((messages) => messages.includes('And how do they end?'));
    expect(followUpCalls.length).toBeGreaterThan(0);
    expect(followUpCalls[0]).toContain('How do for loops work?');
  });

  it('acknowledges a mention only once its turn is recorded (a crash before that leaves it to a retry)', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE ragent_event_claims IN ACCESS EXCLUSIVE MODE');
      const { ts, envelope } = harness.mentionEnvelope('How do until loops work?');
      let acknowledged = false;
      const delivery = other.sender.event(envelope).then((answer) => {
        acknowledged = true;
        return answer;
      });
      // Replica B's claim of the event waits for the lock: its listener has run and handed the question on.
      await vi.waitFor(
        async () => {
          const { rows } = await admin.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'ragent replica-b'
               AND wait_event_type = 'Lock'`,
          );
          expect(rows[0]?.waiting).toBeGreaterThan(0);
        },
        { timeout: 20_000, interval: 20 },
      );
      // Barrier: a later request to the same replica is answered while the mention is still held.
      const check = await other.sender.event({ type: 'url_verification', challenge: 'barrier', token: 'x' });
      expect(check.status).toBe(200);
      expect(acknowledged).toBe(false);
      await admin.query('ROLLBACK');
      expect((await delivery).status).toBe(200);
      await harness.waitForReply(defaultChannel, ts);
      await harness.barrier();
      expect(postsIn(ts)).toHaveLength(1);
    } finally {
      await admin.end();
    }
  });

  // Last: replica A is gone afterwards.
  it('a replica that lost its database closes its receiver; the other one answers', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'ragent replica-a'`,
    );
    await admin.end();
    const { ts, envelope } = harness.mentionEnvelope('How do do-while loops work?');
    // Slack's delivery to A fails (so Slack retries it; behind a load balancer, on B).
    await vi.waitFor(async () => {
      await expect(harness.sender.event(envelope)).rejects.toThrow();
    });
    expect((await other.sender.event(envelope, { retryNum: 1 })).status).toBe(200);
    await harness.waitForReply(defaultChannel, ts);
    expect(postsIn(ts)).toHaveLength(1);
  });
});

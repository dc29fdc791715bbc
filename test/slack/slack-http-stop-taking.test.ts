/**
 * Slack's HTTP mode when the receiver stops taking events (a replica shutting down, or one that lost
 * the shared database): a load balancer keeps its connections to a replica alive, and one whose request
 * was still being acknowledged when the receiver stopped must not bring this replica new events after
 * the response — they belong to a replica that takes them (Slack retries a failed delivery).
 */
import { type Agent, Agent as HttpAgent, request as httpRequest } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedHeaders } from '../fakes/fake-slack-events.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { defaultChannel, type SlackHarness, signingSecret, startSlackHarness } from './slack-harness.ts';

interface Posted {
  status: number;
  connection: string | undefined;
}

/** Posts a signed event on `agent`'s connections (a kept-alive one when it has one). */
function post(agent: Agent, port: number, envelope: Record<string, unknown>): Promise<Posted> {
  const body = JSON.stringify(envelope);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/slack/events',
        method: 'POST',
        agent,
        headers: { ...signedHeaders(signingSecret, body, 'application/json') },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('Slack HTTP receiver that stops taking events', () => {
  let harness: SlackHarness;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    harness = await startSlackHarness({
      environment: { DATABASE_URL: databaseUrl, RAGENT_REPLICA_ID: 'stopping' },
      // Long enough that only the turn record releases an acknowledgement here.
      adapter: { acknowledgementHoldMs: 60_000 },
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('closes a kept-alive connection after the response it was still holding: the next request on it goes elsewhere', async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE ragent_event_claims IN ACCESS EXCLUSIVE MODE');
      const held = harness.mentionEnvelope('How do loops work?');
      const first = post(agent, harness.port, held.envelope);
      // The replica's claim waits for the lock: the request is in flight on the agent's connection.
      await vi.waitFor(
        async () => {
          const { rows } = await admin.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'ragent stopping'
               AND wait_event_type = 'Lock'`,
          );
          expect(rows[0]?.waiting).toBeGreaterThan(0);
        },
        { timeout: 20_000, interval: 20 },
      );
      const stopped = harness.adapter.stopTaking();
      await admin.query('ROLLBACK');
      // Taken before the stop: acknowledged and answered, and its connection ends with the response.
      expect(await first).toEqual({ status: 200, connection: 'close' });
      await stopped;
      await harness.waitForReply(defaultChannel, held.ts);

      // What a load balancer sends next finds no connection to this replica (Slack then retries it).
      const next = harness.mentionEnvelope('And how do pipes work?');
      await expect(post(agent, harness.port, next.envelope)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    } finally {
      agent.destroy();
      await admin.query('ROLLBACK').catch(() => {});
      await admin.end();
    }
  });
});

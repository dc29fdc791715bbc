/**
 * Two real `ragent start` processes (replicas a and b) in Slack's HTTP mode (Events API over HTTP,
 * signed with SLACK_SIGNING_SECRET, each replica on its own port) behind one fake load balancer, on
 * one PostgreSQL database, with one zero-latency fake model. Slack retries a delivery that failed
 * (an error, no response in time) up to 3 times, to another replica (see fake-load-balancer.ts).
 * One cluster for every case (each replica costs seconds to start); the kill comes last.
 * Heavy (two Node processes on a small machine): run this file alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BalancedDelivery } from '../fakes/fake-load-balancer.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import {
  barrier,
  deliverAsMentionAndMessage,
  expectAnsweredOnce,
  expectThreadOrderAcrossReplicas,
} from './replica-cases.ts';
import { type ReplicaCluster, startReplicaCluster } from './slack-replicas-harness.ts';

describe('two Slack replicas in HTTP mode behind a load balancer', { timeout: 300_000 }, () => {
  let cluster: ReplicaCluster | undefined;
  beforeAll(async () => {
    cluster = await startReplicaCluster({ databaseUrl: await createTestDatabase(), mode: 'http' });
    await Promise.all([cluster.start('a'), cluster.start('b')]);
  }, 300_000);
  afterAll(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  /** What Slack saw of each request it made. */
  const attemptsOf = (attempts: readonly BalancedDelivery[] | undefined) =>
    (attempts ?? []).map(({ target, status, upstreamError, retryNum, retryReason }) => ({
      target,
      status,
      ...(upstreamError ? { upstreamError } : {}),
      ...(retryNum ? { retryNum, retryReason } : {}),
    }));

  it('answers a mention once when Slack’s retry reaches the other replica while the first is handled, and once for the app_mention + message pair', async () => {
    const c = cluster!;
    const retried = c.mentionEnvelope('Q-retried: how do loops work?');
    // Slack retries after 3 s without a response whether or not the first request is still running.
    const [first, again] = await Promise.all([
      c.deliver(retried.envelope, { to: 'a' }),
      c.deliver(retried.envelope, { retryAttempt: 1, avoid: 'a' }),
    ]);
    expect(attemptsOf(first.attempts)).toEqual([{ target: 'a', status: 200 }]);
    expect(attemptsOf(again.attempts)).toEqual([
      { target: 'b', status: 200, retryNum: 1, retryReason: 'http_timeout' },
    ]);

    const paired = await deliverAsMentionAndMessage(c, 'Q-paired: what is a pipe?');

    await Promise.all([c.waitForReplies(retried.ts), c.waitForReplies(paired.ts)]);
    await Promise.all([barrier(c, 'a', 'a'), barrier(c, 'b', 'b')]);
    expectAnsweredOnce(c, [
      [retried.ts, 'Q-retried: how do loops work?'],
      [paired.ts, 'Q-paired: what is a pipe?'],
    ]);
  });

  it('answers two messages of one thread in order although they land on different replicas', async () => {
    await expectThreadOrderAcrossReplicas(cluster!, 'queued');
  });

  // Last: replica a is gone afterwards.
  it('when a replica is killed mid-answer, the other tells its thread to ask again once, and answers once the requests Slack retries after they failed at the load balancer', async () => {
    const c = cluster!;
    const release = c.hold('Q-doomed');
    const doomed = await c.mention('Q-doomed: how do loops work?', { to: 'a' });
    await c.waitForModel('Q-doomed');

    // a hangs; Slack's delivery of a follow-up in that thread reaches it and gets no response …
    c.pause('a');
    const followUp = c.mentionEnvelope('Q-follow: and pipes?', { threadTs: doomed.ts });
    let forwarded = () => {};
    const written = new Promise<void>((resolve) => {
      forwarded = resolve;
    });
    const inFlight = c.deliver(followUp.envelope, {
      to: 'a',
      onForwarded: (replica) => replica === 'a' && forwarded(),
    });
    await written;
    // … and dies with the request in flight: the load balancer's connection is reset, Slack gets
    // 502 and retries at once, on b.
    await c.kill('a');
    expect(attemptsOf((await inFlight).attempts)).toEqual([
      { target: 'a', status: 502, upstreamError: 'ECONNRESET' },
      { target: 'b', status: 200, retryNum: 1, retryReason: 'http_error' },
    ]);
    // A mention the load balancer sends to the dead replica later: refused, retried on b.
    const late = c.mentionEnvelope('Q-late: what is a glob?');
    const lateDelivery = await c.deliver(late.envelope, { to: 'a' });
    expect(attemptsOf(lateDelivery.attempts)).toEqual([
      { target: 'a', status: 502, upstreamError: 'ECONNREFUSED' },
      { target: 'b', status: 200, retryNum: 1, retryReason: 'http_error' },
    ]);

    await c.slack.waitFor(() => c.notices(doomed.ts).length > 0, 60_000, 'the ask-again notice');
    await c.slack.waitFor(
      () => c.answerIn(doomed.ts, 'Q-follow: and pipes?'),
      60_000,
      'the answer to the follow-up',
    );
    await c.waitForReplies(late.ts);
    release();
    await barrier(c, 'b', 'after');
    expect(c.notices(doomed.ts)).toHaveLength(1);
    expect(c.notices(doomed.ts)[0]?.changedBy).toBe('b');
    expect(c.answerIn(doomed.ts, 'Q-follow: and pipes?')?.changedBy).toBe('b');
    expect(c.botMessages(doomed.ts)).toHaveLength(2);
    expect(c.botMessages(late.ts)).toHaveLength(1);
    expect(c.turnsRun('Q-follow')).toBe(1);
    expect(c.turnsRun('Q-late')).toBe(1);
    expect(await c.turnsLeft()).toEqual([]);
  });
});

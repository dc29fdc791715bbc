/**
 * Two real `ragent start` processes (replicas a and b) on one PostgreSQL database behind one Slack
 * app in Socket Mode — each envelope goes to ONE connection, as Slack does — and one zero-latency
 * fake model. One cluster for every case (each replica costs seconds of CPU to start), as in
 * slack-http-replicas.test.ts: the cases that kill a replica come last and start it again first.
 * Heavy (two Node processes on a small machine): run this file alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/postgres-database.ts';
import {
  barrier,
  deliverAsMentionAndMessage,
  expectAnsweredOnce,
  expectThreadOrderAcrossReplicas,
} from './replica-cases.ts';
import { type ReplicaCluster, startReplicaCluster } from './slack-replicas-harness.ts';

describe('two Slack replicas on one PostgreSQL', { timeout: 300_000 }, () => {
  let cluster: ReplicaCluster | undefined;
  beforeAll(async () => {
    cluster = await startReplicaCluster({ databaseUrl: await createTestDatabase() });
    await Promise.all([cluster.start('a'), cluster.start('b')]);
  }, 300_000);
  /** Starts again the replicas an earlier case killed, so each case begins with both a and b running. */
  const bothRunning = async (c: ReplicaCluster) => {
    await Promise.all(['a', 'b'].filter((name) => !c.replicas.has(name)).map((name) => c.start(name)));
  };
  afterAll(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('answers a mention once when Slack delivers it again to the other replica, and once for the app_mention + message pair', async () => {
    const c = cluster!;
    const retried = c.mentionEnvelope('Q-retried: how do loops work?');
    const first = await c.deliver(retried.envelope, { to: 'a' });
    const again = await c.deliver(retried.envelope, { retryAttempt: 1, avoid: 'a' });
    expect([first.replica, again.replica]).toEqual(['a', 'b']);

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

  // Last two: each kills a replica (a here; b below, which starts a again first).
  it('when a replica is killed mid-answer, the other tells each of its threads to ask again once and answers the follow-ups queued behind them', async () => {
    const c = cluster!;
    await bothRunning(c);
    const release = c.hold('Q-doomed');
    const threads = await Promise.all(
      [1, 2].map(async (index) => {
        const question = `Q-doomed-${index}: how do loops work?`;
        return { question, ts: (await c.mention(question, { to: 'a' })).ts };
      }),
    );
    await Promise.all(threads.map(({ question }) => c.waitForModel(question.split(':')[0]!)));
    // Follow-ups queued behind the first thread's answer: one on b, one on the doomed replica itself.
    const [doomed] = threads;
    const followUps = ['Q-follow-b: and pipes?', 'Q-follow-a: and globs?'];
    const followUpTs: string[] = [];
    followUpTs.push((await c.mention(followUps[0]!, { to: 'b', threadTs: doomed!.ts })).ts);
    followUpTs.push((await c.mention(followUps[1]!, { to: 'a', threadTs: doomed!.ts })).ts);
    await c.waitForQueued(followUpTs);

    await c.kill('a');
    for (const { ts } of threads) {
      await c.slack.waitFor(() => c.notices(ts).length > 0, 60_000, 'the notice');
    }
    const answers = await c.waitForReplies(doomed!.ts, 3);
    expect(answers.map((message) => message.changedBy)).toEqual(['b', 'b', 'b']);
    for (const question of followUps) expect(c.answerIn(doomed!.ts, question)).toBeDefined();
    release();
    await barrier(c, 'b', 'after the kill');
    for (const { ts } of threads) {
      expect(c.notices(ts)).toHaveLength(1);
      expect(c.notices(ts)[0]?.changedBy).toBe('b');
    }
    for (const question of followUps) expect(c.turnsRun(question)).toBe(1);
    expect(await c.turnsLeft()).toEqual([]);
  });

  it('tells a live replica’s threads nothing when the other replica crashes and restarts, or restarts gracefully', async () => {
    const c = cluster!;
    await bothRunning(c);
    const releaseLive = c.hold('Q-live');
    const releaseDying = c.hold('Q-dying');
    const live = await c.mention('Q-live: how do loops work?', { to: 'a' });
    const dying = await c.mention('Q-dying: what is a pipe?', { to: 'b' });
    await Promise.all([c.waitForModel('Q-live'), c.waitForModel('Q-dying')]);

    await c.kill('b');
    // The dead replica's thread is told once (by a's sweeper or b's next start) …
    await c.start('b');
    await c.slack.waitFor(() => c.notices(dying.ts).length > 0, 60_000, 'the dead replica’s thread told');
    // … and a graceful restart of b touches nobody else's turns either.
    expect(await c.stop('b')).toBe(0);
    await c.start('b');
    await Promise.all([barrier(c, 'a', 'a restarted'), barrier(c, 'b', 'b restarted')]);
    expect(c.notices(dying.ts)).toHaveLength(1);
    expect(c.notices(live.ts)).toEqual([]);

    releaseDying();
    releaseLive();
    const [answer] = await c.waitForReplies(live.ts);
    expect(answer?.text).toContain('Answer to: Q-live: how do loops work?');
    expect(answer?.changedBy).toBe('a');
    await barrier(c, 'a', 'after the restarts');
    expect(c.botMessages(live.ts)).toHaveLength(1);
    expect(c.botMessages(dying.ts)).toHaveLength(1);
    expect(await c.turnsLeft()).toEqual([]);
  });
});

/**
 * Four real `ragent start` processes on one PostgreSQL database behind one Slack app in Socket Mode
 * (each envelope goes to ONE random connection, as Slack does) and one zero-latency fake model.
 * Heavy (four Node processes on a small machine): run this file alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/postgres-database.ts';
import { type ReplicaCluster, startReplicaCluster } from './slack-replicas-harness.ts';

const names = ['a', 'b', 'c', 'd'];

describe('four Slack replicas on one PostgreSQL', { timeout: 600_000 }, () => {
  // One cluster for both cases (four Node processes are costly to start): the burst first, then the kill.
  let cluster: ReplicaCluster | undefined;
  beforeAll(async () => {
    cluster = await startReplicaCluster({
      databaseUrl: await createTestDatabase(),
      // A replica keeps three held answers at the model at once (the default allows two model calls).
      environment: { RAGENT_LLM_CONCURRENCY: '8' },
    });
    await Promise.all(names.map((name) => cluster!.start(name)));
  }, 600_000);
  afterAll(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  /** Barriers for "nothing more happens": a new thread's mention to each running replica, answered. */
  const barriers = (c: ReplicaCluster, label: string) =>
    Promise.all(
      [...c.replicas.keys()].map(async (name) => {
        const { ts } = await c.mention(`barrier ${label} ${name}: how do loops work?`, { to: name });
        await c.waitForReplies(ts, 1, 120_000);
      }),
    );

  it('answers every mention of a burst exactly once and each thread in order, a third of them delivered again to another replica', async () => {
    const c = cluster!;
    const threads = await Promise.all(
      Array.from({ length: 8 }, async (_unused, thread) => {
        const questions = [0, 1].map((index) => `Q-${thread}-${index}: how do loops work?`);
        let rootTs: string | undefined;
        for (const [index, question] of questions.entries()) {
          const { ts, envelope } = c.mentionEnvelope(question, rootTs ? { threadTs: rootTs } : {});
          rootTs ??= ts;
          const first = await c.deliver(envelope);
          if ((thread * 2 + index) % 3 === 0) {
            const again = await c.deliver(envelope, { retryAttempt: 1, avoid: first.replica });
            expect(again.replica).not.toBe(first.replica);
          }
        }
        return { rootTs: rootTs!, questions };
      }),
    );
    for (const { rootTs } of threads) await c.waitForReplies(rootTs, 2, 240_000);
    await barriers(c, 'burst');
    for (const { rootTs, questions } of threads) {
      expect(c.botMessages(rootTs)).toHaveLength(2);
      const [first, second] = questions.map((question) => c.answerIn(rootTs, question));
      expect(first && second).toBeDefined();
      for (const question of questions) expect(c.turnsRun(question)).toBe(1);
      expect(c.firstAskedAt(questions[1]!)).toBeGreaterThanOrEqual(c.finishedAt(first!));
    }
  });

  it('when one of four is killed mid-answer, each of its threads is told to ask again exactly once and its queued follow-ups are answered', async () => {
    const c = cluster!;
    const release = c.hold('Q-doomed');
    const threads = await Promise.all(
      [1, 2, 3].map(async (index) => {
        const question = `Q-doomed-${index}: how do loops work?`;
        return { question, ts: (await c.mention(question, { to: 'd' })).ts };
      }),
    );
    await Promise.all(threads.map(({ question }) => c.waitForModel(question.split(':')[0]!)));
    const followUps = await Promise.all(
      threads.map(async ({ ts }, index) => {
        const question = `Q-follow-${index}: and pipes?`;
        // The first follow-up is queued on the doomed replica itself, the others elsewhere.
        const sent = await c.mention(question, {
          threadTs: ts,
          ...(index === 0 ? { to: 'd' } : { avoid: 'd' }),
        });
        return { question, ts, followUpTs: sent.ts };
      }),
    );
    // Killed once every follow-up is queued behind its thread's answer (an acknowledgement the dead
    // replica had not yet queued is told to ask again instead).
    await c.waitForQueued(followUps.map(({ followUpTs }) => followUpTs));

    await c.kill('d');
    for (const { ts, question } of followUps) {
      await c.slack.waitFor(() => c.answerIn(ts, question), 120_000, `the answer to ${question}`);
      await c.slack.waitFor(() => c.notices(ts).length > 0, 120_000, 'the notice');
    }
    release();
    await barriers(c, 'after');
    for (const { ts, question } of followUps) {
      // Three replicas sweep; one of them told the thread, once.
      expect(c.notices(ts)).toHaveLength(1);
      expect(c.notices(ts)[0]?.changedBy).not.toBe('d');
      expect(c.answerIn(ts, question)?.changedBy).not.toBe('d');
      expect(c.turnsRun(question)).toBe(1);
      expect(c.botMessages(ts)).toHaveLength(2);
    }
    expect(await c.turnsLeft()).toEqual([]);
  });
});

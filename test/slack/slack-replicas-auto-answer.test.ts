/**
 * Auto-answer with replicas: real `ragent start` processes on one PostgreSQL behind one Slack app in
 * Socket Mode. The switch set through one replica is seen by the other; a burst of questions, each
 * delivered twice (to both replicas), is answered once per question; the setting survives a restart
 * of every replica. Heavy (two Node processes on a small machine): run this file alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelope, messageTs, slashCommand } from '../fakes/fake-slack-events.ts';
import { createTestDatabase } from '../support/postgres-database.ts';
import { barrier, expectAnsweredOnce } from './replica-cases.ts';
import {
  type ReplicaCluster,
  replicaChannel,
  replicaUser,
  startReplicaCluster,
} from './slack-replicas-harness.ts';

const admin = 'UADMIN';

describe('auto-answer with two Slack replicas on one PostgreSQL', { timeout: 300_000 }, () => {
  let cluster: ReplicaCluster | undefined;
  beforeAll(async () => {
    cluster = await startReplicaCluster({
      databaseUrl: await createTestDatabase(),
      environment: { RAGENT_ADMINS: admin },
    });
    // A member Slack says is not an admin (users.info).
    cluster.slack.addUser({ id: replicaUser, name: 'alice' });
    await Promise.all([cluster.start('a'), cluster.start('b')]);
  }, 300_000);
  afterAll(async () => {
    await cluster?.close();
  });

  let commands = 0;
  async function command(text: string, replica: string, user = admin): Promise<string> {
    const c = cluster!;
    commands += 1;
    const responseId = `replica-command-${commands}`;
    const connection = c.replicas.get(replica)?.connection;
    if (!connection) throw new Error(`replica ${replica} has no connection`);
    await c.slack.sendEnvelope(
      slashCommand({
        team: c.slack.teamId,
        channel: replicaChannel,
        user,
        text,
        responseUrl: c.slack.responseUrl(responseId),
      }),
      { type: 'slash_commands', connection },
    );
    const [reply] = await c.slack.waitFor(
      () => {
        const posts = c.slack.responses(responseId);
        return posts.length > 0 ? posts : undefined;
      },
      60_000,
      `the reply to /ragent ${text}`,
    );
    return String(reply?.text);
  }

  /** A person's top-level message in the channel (no mention), not sent. */
  function topLevel(text: string): { ts: string; envelope: Record<string, unknown> } {
    const c = cluster!;
    const ts = messageTs();
    const envelope = eventEnvelope(
      'message',
      { team: c.slack.teamId, channel: replicaChannel, user: replicaUser, text, ts },
      c.slack.botUserId,
    );
    return { ts, envelope };
  }

  it('is turned on through one replica, and the other answers top-level questions', async () => {
    const c = cluster!;
    expect(await command('autoanswer on', 'a')).toMatch(/Auto-answer is on in <#C0REPLICAS>/);
    const question = 'Q-auto: how do loops work?';
    const { ts, envelope } = topLevel(question);
    await c.deliver(envelope, { to: 'b' });
    await c.waitForReplies(ts);
    expectAnsweredOnce(c, [[ts, question]]);
    expect(await command('docs', 'b', replicaUser)).toContain('Auto-answer: on');
  });

  it('answers a burst of questions once each, though Slack delivers each to both replicas', async () => {
    const c = cluster!;
    const questions = [1, 2, 3, 4, 5].map((n) => `Q-burst-${n}: how do loops nest?`);
    const sent = questions.map((question) => ({ question, ...topLevel(question) }));
    await Promise.all(
      sent.map(async ({ envelope }, index) => {
        const first = index % 2 === 0 ? 'a' : 'b';
        await Promise.all([
          c.deliver(envelope, { to: first }),
          c.deliver(envelope, { retryAttempt: 1, avoid: first }),
        ]);
      }),
    );
    await Promise.all(sent.map(({ ts }) => c.waitForReplies(ts)));
    await Promise.all([barrier(c, 'a', 'burst-a'), barrier(c, 'b', 'burst-b')]);
    expectAnsweredOnce(
      c,
      sent.map(({ ts, question }) => [ts, question] as const),
    );
  });

  it('keeps the setting across a restart of every replica, and off stops it everywhere', async () => {
    const c = cluster!;
    await Promise.all([c.stop('a'), c.stop('b')]);
    await c.start('c');
    const question = 'Q-after-restart: how do loops end?';
    const asked = topLevel(question);
    await c.deliver(asked.envelope, { to: 'c' });
    await c.waitForReplies(asked.ts);
    expectAnsweredOnce(c, [[asked.ts, question]]);

    // A member who is not an admin is refused, and nothing changes.
    expect(await command('autoanswer off', 'c', replicaUser)).toMatch(
      /Only a workspace admin can turn auto-answer/,
    );
    expect(await command('help', 'c', replicaUser)).toContain('Auto-answer: on');
    expect(await command('autoanswer off', 'c')).toMatch(/Auto-answer is off in <#C0REPLICAS>/);
    const ignored = topLevel('Q-off: how do loops start?');
    await c.deliver(ignored.envelope, { to: 'c' });
    await barrier(c, 'c', 'off');
    expect(c.botMessages(ignored.ts)).toEqual([]);
    expect(c.turnsRun('Q-off')).toBe(0);
  });
});

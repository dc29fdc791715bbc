/**
 * What the multi-process Slack replica tests check the same way in Socket Mode and in HTTP mode: a
 * barrier for "nothing more happens", the app_mention + message pair Slack sends for one mention, "each
 * answered once", and a thread's messages answered in order across replicas. Only how an event reaches a
 * replica differs between the modes (slack-replicas-harness.ts).
 */
import { expect } from 'vitest';
import type { ReplicaCluster } from './slack-replicas-harness.ts';

/** A barrier for "nothing more happens": a new thread's mention to `replica`, answered. */
export async function barrier(c: ReplicaCluster, replica: string, label: string): Promise<void> {
  const { ts } = await c.mention(`barrier ${label}: how do loops work?`, { to: replica });
  await c.waitForReplies(ts);
}

/** Slack sends a mention as app_mention AND message: here the first to b and the second to a, at once. */
export async function deliverAsMentionAndMessage(
  c: ReplicaCluster,
  question: string,
): Promise<{ ts: string }> {
  const paired = c.mentionEnvelope(question);
  const asMessage = structuredClone(paired.envelope) as { event: Record<string, unknown>; event_id: string };
  asMessage.event.type = 'message';
  asMessage.event.channel_type = 'channel';
  asMessage.event_id = `${asMessage.event_id}m`;
  await Promise.all([c.deliver(paired.envelope, { to: 'b' }), c.deliver(asMessage, { to: 'a' })]);
  return { ts: paired.ts };
}

/** Each thread has one answer, to its question, and the model was asked it once. */
export function expectAnsweredOnce(c: ReplicaCluster, threads: readonly (readonly [string, string])[]): void {
  for (const [ts, question] of threads) {
    expect(c.botMessages(ts)).toHaveLength(1);
    expect(c.answerIn(ts, question)).toBeDefined();
    expect(c.turnsRun(question)).toBe(1);
  }
}

/**
 * Two messages of one thread, the first to a (held at the model) and the second to b: b queues the
 * second behind the first and answers it only once the first answer is delivered. `label` keeps the
 * barrier's thread apart from others of the same cluster.
 */
export async function expectThreadOrderAcrossReplicas(c: ReplicaCluster, label: string): Promise<void> {
  const releaseFirst = c.hold('Q-first');
  const first = await c.mention('Q-first: how do loops work?', { to: 'a' });
  await c.waitForModel('Q-first');
  const second = await c.mention('Q-second: and pipes?', { to: 'b', threadTs: first.ts });
  await c.slack.waitFor(
    () => c.botMessages(first.ts).length === 2 || undefined,
    60_000,
    'the second message’s status',
  );
  // b has the second message queued behind the first, and is otherwise free: it answers elsewhere.
  await barrier(c, 'b', label);
  expect(
    await c.query('SELECT state FROM ragent_turns_in_flight WHERE key = $1', [c.turnKey(second.ts)]),
  ).toEqual([{ state: 'queued' }]);
  expect(c.firstAskedAt('Q-second')).toBeUndefined();

  releaseFirst();
  await c.waitForReplies(first.ts, 2);
  const firstAnswer = c.answerIn(first.ts, 'Q-first: how do loops work?');
  const secondAnswer = c.answerIn(first.ts, 'Q-second: and pipes?');
  expect([firstAnswer?.changedBy, secondAnswer?.changedBy]).toEqual(['a', 'b']);
  // The second reached the model only once the first answer was delivered.
  expect(c.firstAskedAt('Q-second')).toBeGreaterThanOrEqual(c.finishedAt(firstAnswer!));
  expect(c.turnsRun('Q-first')).toBe(1);
  expect(c.turnsRun('Q-second')).toBe(1);
}

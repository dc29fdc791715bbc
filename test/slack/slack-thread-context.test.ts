/**
 * Slack's half of joining a thread, at the wire: `conversations.replies` paged with its cursor up to
 * the question, the newest messages kept, each person named once through `users.info`, the bot's
 * own earlier messages shown as its own; a refused read (missing scope) answered anyway and logged
 * once with what to fix.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { messageTs } from '../fakes/fake-slack-events.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: reading a thread ragent joins', () => {
  let harness: SlackHarness;
  afterEach(async () => {
    await harness?.close();
  });

  const rewritePrompt = (question: string) =>
    harness.ollama
      .chatRequests()
      .filter((request) => request.format)
      .map((request) => request.messages.map((message) => message.content).join('\n'))
      .find((text) => text.includes(`User message:\n${question}`)) ?? '';

  it('pages through a long thread, keeps the newest, names each person once, and marks its own messages', async () => {
    harness = await startSlackHarness({ environment: { RAGENT_THREAD_CONTEXT_TOKENS: '100000' } });
    const { slack } = harness;
    slack.addUser({ id: 'UPRIYA', name: 'priya', displayName: 'Priya' });
    slack.addUser({ id: 'UMARCO', name: 'marco', displayName: 'Marco' });
    const root = slack.addMessage({
      channel: defaultChannel,
      user: 'UPRIYA',
      text: 'message 0',
      ts: messageTs(),
    });
    for (let index = 1; index < 250; index += 1) {
      slack.addMessage({
        channel: defaultChannel,
        user: index % 2 ? 'UMARCO' : 'UPRIYA',
        text: index === 249 ? `message ${index} for <@UPRIYA>` : `message ${index}`,
        threadTs: root,
        ts: messageTs(),
      });
    }
    slack.addMessage({
      channel: defaultChannel,
      user: slack.botUserId,
      text: 'an earlier note of mine',
      threadTs: root,
      ts: messageTs(),
    });
    await harness.mention('what is the latest here?', { threadTs: root });
    await harness.waitForReply(defaultChannel, root);
    const reads = slack.callsTo('conversations.replies');
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads[1]?.body.cursor).toBeTruthy();
    const prompt = rewritePrompt('what is the latest here?');
    // RAGENT_THREAD_CONTEXT_MESSAGES (50): the newest 50 before the question, oldest first.
    expect(prompt).not.toContain('message 200\n');
    expect(prompt).toContain('Priya: message 202');
    expect(prompt).toContain('Marco: message 249 for @Priya');
    expect(prompt).toContain('ragent (you): an earlier note of mine');
    expect(prompt.indexOf('Priya: message 202')).toBeLessThan(prompt.indexOf('Marco: message 249'));
    // Each person asked of Slack once in the read.
    const looked = slack.callsTo('users.info').map((call) => call.body.user);
    expect(looked.sort()).toEqual(['UMARCO', 'UPRIYA']);
  });

  it('answers without the thread when Slack refuses to read it, and says once in the log what to fix', async () => {
    const logLines: string[] = [];
    harness = await startSlackHarness({ logLines });
    const { slack } = harness;
    slack.failNext('conversations.replies', 'missing_scope', 2);
    for (const question of ['How do while loops work?', 'How do for loops work?']) {
      const root = slack.addMessage({
        channel: defaultChannel,
        user: 'UPRIYA',
        text: 'a question for later',
        ts: messageTs(),
      });
      await harness.mention(question, { threadTs: root });
      await harness.waitForReply(defaultChannel, root);
    }
    const warnings = logLines.filter(
      (line) => line.includes('could not read the thread') && line.includes('"level":40'),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('channels:history');
    expect(logLines.filter((line) => line.includes('could not read the thread'))).toHaveLength(2);
  });
});

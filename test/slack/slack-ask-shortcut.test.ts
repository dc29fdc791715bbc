/**
 * Slack's "Ask ragent" message shortcut, at the wire: asked on a reply, the answer goes to the
 * reply's thread with what came before it as context (not what came after); asked on a thread's
 * first message, its replies so far are the context (not the question, not ragent's own status);
 * the person who chose it is the turn's user.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageShortcut, messageTs } from '../fakes/fake-slack-events.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack: "Ask ragent" on a message', () => {
  let harness: SlackHarness;
  afterEach(async () => {
    await harness?.close();
  });

  const ask = async (message: { ts: string; threadTs?: string; text: string; user: string }) => {
    const delivery = await harness.sender.interaction(
      messageShortcut({
        team: harness.slack.teamId,
        user: 'UASKER',
        channel: defaultChannel,
        callbackId: 'ask_ragent',
        message,
      }),
    );
    expect(delivery.status).toBe(200);
  };
  const rewritePrompt = (question: string) =>
    harness.ollama
      .chatRequests()
      .filter((request) => request.format)
      .map((request) => request.messages.map((message) => message.content).join('\n'))
      .find((text) => text.includes(`User message:\n${question}`)) ?? '';

  it('answers a reply in its thread, with what came before it, and records the asker as the turn’s user', async () => {
    harness = await startSlackHarness();
    const { slack } = harness;
    slack.addUser({ id: 'UKIM', name: 'kim', displayName: 'Kim' });
    const root = slack.addMessage({
      channel: defaultChannel,
      user: 'UKIM',
      text: 'We run bash 5',
      ts: messageTs(),
    });
    const reply = slack.addMessage({
      channel: defaultChannel,
      user: 'UKIM',
      text: 'How do I read a file line by line?',
      threadTs: root,
      ts: messageTs(),
    });
    slack.addMessage({
      channel: defaultChannel,
      user: 'UKIM',
      text: 'a later remark',
      threadTs: root,
      ts: messageTs(),
    });
    await ask({ ts: reply, threadTs: root, text: 'How do I read a file line by line?', user: 'UKIM' });
    const [answer] = await harness.waitForReply(defaultChannel, root);
    expect(answer?.threadTs).toBe(root);
    const prompt = rewritePrompt('How do I read a file line by line?');
    expect(prompt).toContain('Kim: We run bash 5');
    expect(prompt).not.toContain('a later remark');
    await vi.waitFor(async () => {
      const turns = await harness.services.turnHistory.listTurns();
      expect(turns.find((turn) => turn.question === 'How do I read a file line by line?')?.user).toBe(
        'UASKER',
      );
    });
  });

  it('asked on a thread’s first message, reads its replies so far as the conversation', async () => {
    harness = await startSlackHarness();
    const { slack } = harness;
    slack.addUser({ id: 'ULOU', name: 'lou', displayName: 'Lou' });
    const root = slack.addMessage({
      channel: defaultChannel,
      user: 'ULOU',
      text: 'How do traps work?',
      ts: messageTs(),
    });
    slack.addMessage({
      channel: defaultChannel,
      user: 'ULOU',
      text: 'I mean on EXIT',
      threadTs: root,
      ts: messageTs(),
    });
    await ask({ ts: root, text: 'How do traps work?', user: 'ULOU' });
    await harness.waitForReply(defaultChannel, root);
    const prompt = rewritePrompt('How do traps work?');
    expect(prompt).toContain('Lou: I mean on EXIT');
    expect(prompt).not.toContain('Lou: How do traps work?');
    expect(prompt).not.toContain('ragent (you)');
  });
});

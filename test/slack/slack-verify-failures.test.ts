/**
 * Verify in Slack when something fails: an admin check Slack refuses tells the presser and stores
 * nothing; a verified answer whose message cannot be marked is still verified (and said so).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { blockAction } from '../fakes/fake-slack-events.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

type Element = { action_id?: string; value?: string };

describe('Slack: Verify when Slack refuses a step', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function pressVerify(h: SlackHarness, user: string) {
    const ts = await h.mention('How do I write a while loop?');
    const [answer] = await h.waitForReply(defaultChannel, ts);
    const verify = ((answer?.blocks ?? []) as Array<{ elements?: Element[] }>)
      .flatMap((block) => block.elements ?? [])
      .find((element) => element.action_id === 'ragent_verify');
    const before = h.slack.callsTo('chat.postEphemeral').length;
    await h.sender.interaction(
      blockAction({
        team: h.slack.teamId,
        user,
        channel: defaultChannel,
        messageTs: answer?.ts ?? '',
        threadTs: ts,
        actionId: 'ragent_verify',
        value: String(verify?.value),
        messageBlocks: answer?.blocks ?? [],
      }),
    );
    const reply = await h.slack.waitFor(() => h.slack.callsTo('chat.postEphemeral')[before]);
    return { text: String(reply.body.text), answer };
  }

  it('tells the presser when the admin check fails, and stores nothing', async () => {
    harness = await startSlackHarness();
    harness.slack.addUser({ id: 'UBOSS', name: 'boss', isAdmin: true });
    harness.slack.failNext('users.info', 'ratelimited');
    const { text } = await pressVerify(harness, 'UBOSS');
    expect(text).toMatch(/^:warning: /);
    expect(await harness.services.verifiedAnswers.listVerifiedAnswers()).toEqual([]);
  });

  it('verifies even when the answer message cannot be marked', async () => {
    harness = await startSlackHarness();
    harness.slack.addUser({ id: 'UBOSS', name: 'boss', isAdmin: true });
    harness.slack.failNext('chat.update', 'cant_update_message');
    const { text } = await pressVerify(harness, 'UBOSS');
    expect(text).toContain('Verified');
    expect(await harness.services.verifiedAnswers.listVerifiedAnswers()).toEqual([
      expect.objectContaining({ question: 'How do I write a while loop?', verifiedBy: 'UBOSS' }),
    ]);
  });
});

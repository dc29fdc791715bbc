import { afterEach, describe, expect, it } from 'vitest';
import { blockAction } from '../fakes/fake-slack-events.ts';
import { defaultChannel, type SlackHarness, startSlackHarness } from './slack-harness.ts';

type Block = { type: string; block_id?: string; elements?: Array<Record<string, unknown>> };

describe("Slack: 👍/👎 with Slack's feedback element, classic buttons where it is refused", () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const blockTypes = (blocks: unknown) => ((blocks ?? []) as Block[]).map((block) => block.type);
  const feedbackBlockTypes = (blocks: unknown) =>
    ((blocks ?? []) as Block[])
      .filter((block) => block.block_id === 'ragent_feedback')
      .map((block) => block.type);

  it('stops the stream with the feedback element under the sources, and the answer keeps it', async () => {
    harness = await startSlackHarness();
    const ts = await harness.mention('How do I write a while loop?');
    const [answer] = await harness.waitForReply(defaultChannel, ts);
    const [stop, ...more] = harness.slack.callsTo('chat.stopStream');
    expect(more).toEqual([]);
    expect(blockTypes(stop?.body.blocks)).toContain('context_actions');
    expect(blockTypes(answer?.blocks)).toContain('context_actions');
    // No classic 👍/👎 buttons beside the element (the answer's Verify / Ask a person block is apart).
    expect(feedbackBlockTypes(answer?.blocks)).toEqual(['context_actions']);
  });

  it('where the surface refuses the element, shows the classic buttons, and their click is recorded', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.slack.setFeedbackButtonsSupported(false);
    const ts = await h.mention('How do I write a while loop?');
    const [answer] = await h.waitForReply(defaultChannel, ts);
    // The stream stopped with the classic buttons after Slack refused the element.
    expect(h.slack.callsTo('chat.stopStream').map((call) => feedbackBlockTypes(call.body.blocks)[0])).toEqual(
      ['context_actions', 'actions'],
    );
    const buttons = ((answer?.blocks ?? []) as Block[]).find((block) => block.type === 'actions');
    expect(blockTypes(answer?.blocks)).not.toContain('context_actions');
    const up = buttons?.elements?.find((element) => element.action_id === 'ragent_feedback_up');
    expect(up).toBeDefined();
    const delivery = await h.sender.interaction(
      blockAction({
        team: h.slack.teamId,
        user: 'UBOB',
        channel: defaultChannel,
        messageTs: answer?.ts ?? '',
        threadTs: ts,
        actionId: String(up?.action_id),
        value: String(up?.value),
      }),
    );
    expect(delivery.status).toBe(200);
    await h.slack.waitFor(() => h.slack.callsTo('chat.postEphemeral').length === 1 || undefined);
    const threadId = `slack:${h.slack.teamId}:${defaultChannel}:${ts}`;
    expect(await h.services.coordination.listFeedback({ threadId })).toEqual([
      expect.objectContaining({ threadId, user: 'UBOB', value: 'up' }),
    ]);
    // Refused once: the next answer in the channel carries the classic buttons without asking again.
    const offered = () =>
      h.slack.calls.filter((call) => JSON.stringify(call.body.blocks ?? []).includes('context_actions'))
        .length;
    const before = offered();
    const again = await h.mention('And an until loop?');
    const [second] = await h.waitForReply(defaultChannel, again);
    expect(blockTypes(second?.blocks)).toContain('actions');
    expect(offered()).toBe(before);
  });

  it('ignores a feedback element value without a vote', async () => {
    harness = await startSlackHarness();
    const h = harness;
    const ts = await h.mention('How do I write a while loop?');
    const [answer] = await h.waitForReply(defaultChannel, ts);
    const element = ((answer?.blocks ?? []) as Block[]).find((block) => block.type === 'context_actions')
      ?.elements?.[0] as { action_id: string; positive_button: { value: string } };
    const click = (user: string, value: string) =>
      h.sender.interaction(
        blockAction({
          team: h.slack.teamId,
          user,
          channel: defaultChannel,
          messageTs: answer?.ts ?? '',
          threadTs: ts,
          actionId: element.action_id,
          value,
          type: 'feedback_buttons',
          blockId: 'ragent_feedback',
        }),
      );
    const { vote: _vote, ...withoutVote } = JSON.parse(element.positive_button.value) as Record<
      string,
      string
    >;
    await click('UEVE', JSON.stringify(withoutVote));
    // The barrier: a real vote after it is confirmed, and it is the only one stored.
    await click('UBOB', element.positive_button.value);
    await h.slack.waitFor(() => h.slack.callsTo('chat.postEphemeral').length === 1 || undefined);
    const threadId = `slack:${h.slack.teamId}:${defaultChannel}:${ts}`;
    expect(await h.services.coordination.listFeedback({ threadId })).toEqual([
      expect.objectContaining({ user: 'UBOB', value: 'up' }),
    ]);
  });

  it("ignores feedback naming another workspace's thread, even one whose team id begins with this one's", async () => {
    harness = await startSlackHarness();
    const h = harness;
    const ts = await h.mention('How do I write a while loop?');
    const [answer] = await h.waitForReply(defaultChannel, ts);
    const element = ((answer?.blocks ?? []) as Block[]).find((block) => block.type === 'context_actions')
      ?.elements?.[0] as { action_id: string; positive_button: { value: string } };
    const click = (user: string, value: string) =>
      h.sender.interaction(
        blockAction({
          team: h.slack.teamId,
          user,
          channel: defaultChannel,
          messageTs: answer?.ts ?? '',
          threadTs: ts,
          actionId: element.action_id,
          value,
          type: 'feedback_buttons',
          blockId: 'ragent_feedback',
        }),
      );
    const real = JSON.parse(element.positive_button.value) as Record<string, string>;
    const team = h.slack.teamId;
    // Another team, a team id this one's is the start of (escaped or not), another platform, a part missing.
    const foreign = [
      `slack:T0THER:${defaultChannel}:${ts}`,
      `slack:${team}X:${defaultChannel}:${ts}`,
      `slack:${team}%3AX:${defaultChannel}:${ts}`,
      `discord:${team}:${defaultChannel}`,
      `slack:${team}:${defaultChannel}`,
    ];
    for (const threadId of foreign) await click('UEVE', JSON.stringify({ ...real, threadId }));
    // The barrier: a real vote after them is confirmed, and it is the only one stored.
    await click('UBOB', element.positive_button.value);
    await h.slack.waitFor(() => h.slack.callsTo('chat.postEphemeral').length === 1 || undefined);
    for (const threadId of foreign)
      expect(await h.services.coordination.listFeedback({ threadId })).toEqual([]);
    const threadId = `slack:${team}:${defaultChannel}:${ts}`;
    expect(await h.services.coordination.listFeedback({ threadId })).toEqual([
      expect.objectContaining({ user: 'UBOB', value: 'up' }),
    ]);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { writingMark } from '../../src/adapters/slack/render-reply.ts';
import {
  blockText,
  defaultChannel,
  isBeingWritten,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';

describe('Slack: the answer appears as it is written', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const carriesWritingMark = (body: Record<string, unknown>) =>
    JSON.stringify(body.blocks ?? []).includes(writingMark);

  it('edits the placeholder with the text so far, then replaces it with the answer, sources and buttons', async () => {
    harness = await startSlackHarness();
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    expect(isBeingWritten(answer!)).toBe(false);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'actions')).toBe(true);
    const streamed = harness.slack
      .callsTo('chat.update')
      .filter((call) => call.body.ts === answer?.ts && carriesWritingMark(call.body));
    expect(streamed.length).toBeGreaterThan(0);
    // The text so far, unfinished: no buttons while it is written.
    expect(JSON.stringify(streamed[0]?.body.blocks)).not.toContain('ragent_feedback');
    expect(blockText(answer!)).toContain('The documents do not say.');
  });

  it('under the assistant status, posts the text in the thread and completes that message', async () => {
    harness = await startSlackHarness();
    harness.slack.setAssistantStatusSupported(true);
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    const posted = harness.slack.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === ts);
    expect(posted).toHaveLength(1);
    expect(carriesWritingMark(posted[0]!.body)).toBe(true);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'actions')).toBe(true);
    expect(isBeingWritten(answer!)).toBe(false);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { writingMark } from '../../src/platforms/slack/render-reply.ts';
import { answerBelowText } from '../../src/turns/messages-en.ts';
import {
  blockText,
  defaultChannel,
  isBeingWritten,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

describe('Slack: the answer appears as it is written', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  const carriesWritingMark = (body: Record<string, unknown>) =>
    JSON.stringify(body.blocks ?? []).includes(writingMark);

  it("streams with Slack's chat streaming in the thread, then completes the message with sources and buttons", async () => {
    harness = await startSlackHarness();
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    const [start, ...more] = harness.slack.callsTo('chat.startStream');
    expect(more).toEqual([]);
    expect(start?.body).toMatchObject({
      channel: defaultChannel,
      thread_ts: ts,
      recipient_user_id: expect.any(String),
    });
    expect(String(start?.body.markdown_text)).toMatch(/^The/);
    expect(harness.slack.callsTo('chat.stopStream').map((call) => call.body.ts)).toEqual([answer?.ts]);
    // The placeholder gave way to the streamed message, which the answer completed.
    expect(harness.slack.callsTo('chat.delete')).toHaveLength(1);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    expect(blockText(answer!)).toContain('The documents do not say.');
  });

  it('where Slack refuses streaming, posts the first text in place of the placeholder and completes it, and remembers it for the channel', async () => {
    harness = await startSlackHarness();
    harness.slack.setStreamingSupported(false);
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    expect(isBeingWritten(answer!)).toBe(false);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    // The first text is a new message (no chat.update spent on it); the placeholder went.
    const posted = harness.slack
      .callsTo('chat.postMessage')
      .filter((call) => call.body.thread_ts === ts && carriesWritingMark(call.body));
    expect(posted).toHaveLength(1);
    // The text so far, unfinished: no buttons while it is written.
    expect(JSON.stringify(posted[0]?.body.blocks)).not.toContain('ragent_feedback');
    const deleted = harness.slack.deletedMessages();
    expect(deleted).toHaveLength(1);
    expect(JSON.stringify(deleted[0]?.blocks)).toContain('hourglass');
    expect(blockText(answer!)).toContain('The documents do not say.');
    const again = await harness.mention('And an until loop?');
    await harness.waitForReply(defaultChannel, again);
    // Refused once: the second answer in the channel did not ask again.
    expect(harness.slack.calls.filter((call) => call.method === 'chat.startStream')).toHaveLength(1);
  });

  it('where the status message cannot be deleted when the text takes its place, deletes it after the reply', async () => {
    harness = await startSlackHarness();
    harness.slack.setStreamingSupported(false);
    harness.slack.failNext('chat.delete', 'internal_error');
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    expect(blockText(answer!)).toContain('The documents do not say.');
    // Tried again once the reply is out.
    const deletes = await harness.slack.waitFor(() => {
      const calls = harness?.slack.callsTo('chat.delete') ?? [];
      return calls.length === 2 && calls;
    });
    expect(deletes[1]?.body.ts).toBe(deletes[0]?.body.ts);
    expect(JSON.stringify(harness.slack.deletedMessages()[0]?.blocks)).toContain('hourglass');
  });

  it('where the status message can never be deleted, it points at the answer instead of showing the working line', async () => {
    harness = await startSlackHarness();
    harness.slack.setStreamingSupported(false);
    harness.slack.failNext('chat.delete', 'cant_delete_message', 100);
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    expect(blockText(answer!)).toContain('The documents do not say.');
    // Tried again after the reply, then edited to point at it.
    const first = await harness.slack.waitFor(() =>
      harness?.slack.messages(defaultChannel, ts).find((message) => message.text === answerBelowText),
    );
    expect(harness.slack.callsTo('chat.delete')).toHaveLength(2);
    expect(JSON.stringify(first.blocks)).not.toContain('hourglass');
    expect(harness.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts)).toHaveLength(2);
  });

  it('under the assistant status, posts the text in the thread and completes that message', async () => {
    harness = await startSlackHarness();
    harness.slack.setAssistantStatusSupported(true);
    harness.slack.setStreamingSupported(false);
    const ts = await harness.mention('How do I write a while loop?');
    const [answer, ...others] = await harness.waitForReply(defaultChannel, ts);
    expect(others).toEqual([]);
    const posted = harness.slack.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === ts);
    expect(posted).toHaveLength(1);
    expect(carriesWritingMark(posted[0]!.body)).toBe(true);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    expect(isBeingWritten(answer!)).toBe(false);
  });

  it('never streams a ping, even one split across pieces', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.ollama.setChat(async (request, index) => {
      const reply = await slackModel(request, index);
      const final = 'content' in reply && reply.content?.startsWith('The documents');
      return final
        ? // Slow enough to span several 50 ms text intervals, so the text goes out in several pieces.
          { content: 'Tell @here and <!channel> and @everyone about loops.', tokenDelayMs: 40 }
        : reply;
    });
    const ts = await h.mention('Who should know?');
    await h.waitForReply(defaultChannel, ts);
    const pieces = h.slack.calls
      .filter((call) => ['chat.startStream', 'chat.appendStream', 'chat.stopStream'].includes(call.method))
      .map((call) => String(call.body.markdown_text ?? ''));
    expect(pieces.filter(Boolean).length).toBeGreaterThan(1);
    const joined = pieces.join('');
    expect(joined).toContain('Tell @');
    for (const ping of ['@here', '<!channel>', '@everyone']) expect(joined).not.toContain(ping);
  });
});

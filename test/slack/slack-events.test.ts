import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventEnvelope, messageTs } from '../fakes/fake-slack-events.ts';
import {
  blockText,
  defaultChannel,
  defaultUser,
  isPlaceholder,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';
import { slackModel } from './slack-model.ts';

describe('Slack events over Bolt’s HTTP receiver', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('rejects a request with a bad signature (401) and does nothing', async () => {
    const before = harness.slack.calls.length;
    const { envelope } = harness.mentionEnvelope('hi');
    const forged = await harness.sender.event(envelope, { signingSecret: 'not-the-secret' });
    expect(forged.status).toBe(401);
    const stale = await harness.sender.event(envelope, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(stale.status).toBe(401);
    const fromBarrier = await harness.barrier();
    expect(
      harness.slack.calls
        .slice(before)
        .filter((call) => call.method.startsWith('chat.') && !fromBarrier(call)),
    ).toEqual([]);
  });

  it('answers a mention in its thread: placeholder status first, then the answer replaces it', async () => {
    const ts = await harness.mention('How do while loops work?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    const posts = harness.slack.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === ts);
    // The first thing in the thread is the status placeholder; the answer replaced it in place.
    expect(String(posts[0]?.body.text)).toMatch(/^:hourglass_flowing_sand:/);
    // Form-encoded on the wire, so booleans arrive as strings.
    expect(posts[0]?.body).toMatchObject({ unfurl_links: 'false', unfurl_media: 'false' });
    expect(posts).toHaveLength(1);
    expect(reply?.updates).toBeGreaterThanOrEqual(1);
    expect(reply && isPlaceholder(reply)).toBe(false);
    expect(reply?.blocks.some((block) => (block as { type: string }).type === 'markdown')).toBe(true);
    expect(reply?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    // Every call carried the bot token and went to the configured API.
    expect(
      harness.slack.calls.every(
        (call) => call.token === harness.slack.botToken || call.method.endsWith('#rate-limited'),
      ),
    ).toBe(true);
  });

  it('falls back to mrkdwn sections when Slack refuses the markdown block', async () => {
    harness.slack.setMarkdownBlocksSupported(false);
    try {
      const ts = await harness.mention('How do while loops work?');
      const [reply] = await harness.waitForReply(defaultChannel, ts);
      expect(reply && isPlaceholder(reply)).toBe(false);
      const types = reply?.blocks.map((block) => (block as { type: string }).type) ?? [];
      expect(types).not.toContain('markdown');
      expect(types).toContain('section');
      expect(types).toContain('actions');
      const sections = (reply?.blocks ?? []).filter(
        (block) => (block as { type: string }).type === 'section',
      );
      const sectionText = sections.map((block) => (block as { text: { text: string } }).text.text).join('\n');
      expect(sectionText.length).toBeGreaterThan(0);
      expect(sectionText.startsWith(String(reply?.text).slice(0, 20))).toBe(true);
      expect(harness.slack.calls.some((call) => call.method === 'chat.update')).toBe(true);
    } finally {
      harness.slack.setMarkdownBlocksSupported(true);
    }
  });

  it('updates the status line as the graph progresses', async () => {
    // The placeholder carries the status here (with text streaming it gives way to the stream later).
    harness.slack.setStreamingSupported(false);
    harness.ollama.setChat(async (request, index) => {
      const reply = await slackModel(request, index);
      return 'fail' in reply ? reply : { ...reply, delayMs: 150 };
    });
    try {
      const ts = await harness.mention('Where are loops explained?');
      await harness.waitForReply(defaultChannel, ts);
      // The placeholder showed the statuses, then gave way to the first text.
      const placeholder = harness.slack.deletedMessages().find((message) => message.threadTs === ts);
      const statusLines = harness.slack
        .callsTo('chat.update')
        .filter((call) => call.body.ts === placeholder?.ts)
        .map((call) => String(call.body.text))
        .filter((text) => text.startsWith(':hourglass_flowing_sand:'));
      expect(statusLines.join('\n')).toMatch(
        /Searching the documents for “.*loops.*”|Understanding the question/,
      );
    } finally {
      harness.ollama.setChat(slackModel);
      harness.slack.setStreamingSupported(true);
    }
  });

  it('uses the assistant thread status where Slack allows it', async () => {
    harness.slack.setAssistantStatusSupported(true);
    try {
      const channel = 'C0ASSIST';
      const ts = await harness.mention('What does a for loop do?', { channel });
      const [reply] = await harness.waitForReply(channel, ts);
      const statusCalls = () =>
        harness.slack.callsTo('assistant.threads.setStatus').filter((call) => call.body.thread_ts === ts);
      await harness.slack.waitFor(
        () => statusCalls().at(-1)?.body.status === '',
        5_000,
        'the status to be cleared',
      );
      expect(statusCalls()[0]?.body).toMatchObject({
        channel_id: channel,
        status: expect.stringMatching(/working/i),
      });
      expect(reply && isPlaceholder(reply)).toBe(false);
      expect(harness.slack.messages(channel, ts).filter((message) => message.ts !== ts)).toHaveLength(1);
    } finally {
      harness.slack.setAssistantStatusSupported(false);
    }
  });

  it('answers once when Slack retries the event (x-slack-retry-num)', async () => {
    const { ts, envelope } = harness.mentionEnvelope('retried question');
    const deliveries = await Promise.all([
      harness.sender.event(envelope),
      harness.sender.event(envelope, { retryNum: 1 }),
      harness.sender.event(envelope, { retryNum: 2 }),
    ]);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    await harness.waitForReply(defaultChannel, ts);
    await harness.barrier();
    expect(harness.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts)).toHaveLength(1);
    // One acknowledgement (the placeholder), one answer.
    expect(
      harness.slack
        .callsTo('chat.postMessage')
        .filter((call) => call.body.thread_ts === ts && String(call.body.text).startsWith(':hourglass')),
    ).toHaveLength(1);
  });

  it('answers once when Slack delivers a mention as app_mention and message', async () => {
    const ts = messageTs();
    const text = `<@${harness.slack.botUserId}> double delivery`;
    const fields = { team: harness.slack.teamId, channel: defaultChannel, user: defaultUser, ts, text };
    await Promise.all([
      harness.sender.event(eventEnvelope('message', fields, harness.slack.botUserId)),
      harness.sender.event(eventEnvelope('app_mention', fields, harness.slack.botUserId)),
    ]);
    await harness.waitForReply(defaultChannel, ts);
    await harness.barrier();
    // One acknowledgement (the placeholder), one answer.
    expect(
      harness.slack
        .callsTo('chat.postMessage')
        .filter((call) => call.body.thread_ts === ts && String(call.body.text).startsWith(':hourglass')),
    ).toHaveLength(1);
  });

  it('answers any message in a DM, and ignores bots and its own messages', async () => {
    const dm = 'D0ALICE';
    const ts = await harness.message('How do loops end?', { channel: dm, channelType: 'im' });
    await harness.waitForReply(dm, ts);

    const before = harness.slack.callsTo('chat.postMessage').length;
    await harness.message('I am another bot', {
      channel: dm,
      channelType: 'im',
      botId: 'BOTHER',
      subtype: 'bot_message',
    });
    await harness.message('I am ragent itself', {
      channel: dm,
      channelType: 'im',
      user: harness.slack.botUserId,
    });
    await harness.mention('a bot mentioning ragent', { botId: 'BOTHER' });
    await harness.message('plain channel chatter, no mention');
    const fromBarrier = await harness.barrier();
    expect(
      harness.slack
        .callsTo('chat.postMessage')
        .slice(before)
        .filter((call) => !fromBarrier(call)),
    ).toEqual([]);
  });

  it('retries a rate-limited call as Slack advises and still answers', async () => {
    harness.slack.rateLimitNext('chat.postMessage', 1);
    const ts = await harness.mention('Rate limits?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    expect(reply && isPlaceholder(reply)).toBe(false);
    expect(harness.slack.callsTo('chat.postMessage#rate-limited').length).toBeGreaterThanOrEqual(1);
  });

  it('splits a long answer over several thread messages, the placeholder replaced by the first', async () => {
    const paragraph = `${'A loop repeats its body while its condition holds. '.repeat(20)}\n\n`;
    harness.ollama.setChat((request) =>
      request.tools
        ? { content: paragraph.repeat(30) }
        : { content: JSON.stringify({ isClear: true, questions: ['long'], clarificationNeeded: '' }) },
    );
    try {
      const ts = await harness.mention('Tell me everything about loops');
      const replies = await harness.waitForReply(defaultChannel, ts, 4); // Parts of at most 9,000 characters.
      expect(replies[0]?.updates).toBeGreaterThanOrEqual(1);
      for (const reply of replies) {
        const markdown = reply.blocks.filter((block) => (block as { type: string }).type === 'markdown');
        expect(
          markdown.reduce((sum: number, block) => sum + String((block as { text: string }).text).length, 0),
        ).toBeLessThanOrEqual(12_000);
      }
      const withButtons = replies.filter((reply) =>
        reply.blocks.some((block) => (block as { type: string }).type === 'context_actions'),
      );
      expect(withButtons).toEqual([replies.at(-1)]);
    } finally {
      harness.ollama.setChat(slackModel);
    }
  });

  it('never pings: mentions in the model’s answer are neutralised', async () => {
    harness.ollama.setChat((request) =>
      request.tools
        ? { content: 'Heads up <!channel> and <!here>, also @everyone and <!subteam^S123|team> and <@U999>.' }
        : { content: JSON.stringify({ isClear: true, questions: ['ping'], clarificationNeeded: '' }) },
    );
    try {
      const ts = await harness.mention('Say something loud');
      const [reply] = await harness.waitForReply(defaultChannel, ts);
      const outgoing = `${reply?.text}\n${reply ? blockText(reply) : ''}`;
      expect(outgoing).toContain('channel');
      for (const ping of ['<!channel>', '<!here>', '<!subteam^', '<@U999>', '@everyone']) {
        expect(outgoing).not.toContain(ping);
      }
    } finally {
      harness.ollama.setChat(slackModel);
    }
  });
});

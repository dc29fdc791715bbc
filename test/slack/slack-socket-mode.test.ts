import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slashCommand } from '../fakes/fake-slack-events.ts';
import { defaultChannel, defaultUser, type SlackHarness, startSlackHarness } from './slack-harness.ts';

describe('Slack in Socket Mode (apps.connections.open + WebSocket)', () => {
  let harness: SlackHarness;
  beforeAll(async () => {
    harness = await startSlackHarness({ mode: 'socket' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('connects with the app token and answers a mention', async () => {
    expect(harness.adapter.mode).toBe('socket');
    expect(harness.slack.socketCount()).toBe(1);
    expect(harness.slack.callsTo('apps.connections.open')[0]?.token).toBe(harness.slack.appToken);
    const ts = await harness.mention('How do loops work?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    expect(reply?.blocks.some((block) => (block as { type: string }).type === 'markdown')).toBe(true);
  });

  it('answers once when Slack redelivers an event with retry_attempt', async () => {
    const { ts, envelope } = harness.mentionEnvelope('retried over the socket');
    await harness.slack.sendEnvelope(envelope, { type: 'events_api' });
    await harness.slack.sendEnvelope(envelope, { type: 'events_api', retryAttempt: 1 });
    await harness.waitForReply(defaultChannel, ts);
    await harness.barrier();
    expect(
      harness.slack.callsTo('chat.postMessage').filter((call) => call.body.thread_ts === ts),
    ).toHaveLength(1);
  });

  it('acknowledges a slash command envelope and answers through response_url', async () => {
    const ack = await harness.slack.sendEnvelope(
      slashCommand({
        team: harness.slack.teamId,
        channel: defaultChannel,
        user: defaultUser,
        text: 'help',
        responseUrl: harness.slack.responseUrl('socket-help'),
      }),
      { type: 'slash_commands' },
    );
    expect(ack).toEqual({});
    const [reply] = await harness.slack.waitFor(() => {
      const posts = harness.slack.responses('socket-help');
      return posts.length > 0 ? posts : undefined;
    });
    expect(String(reply?.text)).toContain('/ragent docs');
  });
});

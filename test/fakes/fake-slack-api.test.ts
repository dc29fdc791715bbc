import { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './fake-slack-api.ts';

describe('fake Slack Web API through the real @slack/web-api client', () => {
  let slack: FakeSlackApi;
  afterEach(async () => {
    await slack?.close();
  });

  const client = (token: string) =>
    new webApi.WebClient(token, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });

  it('answers auth.test and records calls with their bodies and tokens', async () => {
    slack = await startFakeSlackApi({ teamId: 'T9', botUserId: 'U9' });
    const result = await client(slack.botToken).auth.test();
    expect(result).toMatchObject({ ok: true, team_id: 'T9', user_id: 'U9' });
    expect(slack.callsTo('auth.test')[0]?.token).toBe(slack.botToken);
  });

  it('rejects calls without the bot token like Slack does', async () => {
    slack = await startFakeSlackApi();
    await expect(client('xoxb-wrong').chat.postMessage({ channel: 'C1', text: 'hi' })).rejects.toMatchObject({
      data: { ok: false, error: 'invalid_auth' },
    });
    expect(slack.messages('C1')).toEqual([]);
  });

  it('keeps posted and updated messages per thread, blocks decoded', async () => {
    slack = await startFakeSlackApi();
    const web = client(slack.botToken);
    const root = await web.chat.postMessage({ channel: 'C1', text: 'root' });
    const reply = await web.chat.postMessage({
      channel: 'C1',
      thread_ts: String(root.ts),
      text: 'working',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'working' } }],
    });
    await web.chat.update({ channel: 'C1', ts: String(reply.ts), text: 'done', blocks: [] });
    const thread = slack.messages('C1', String(root.ts));
    expect(thread.map((message) => [message.text, message.updates])).toEqual([
      ['root', 0],
      ['done', 1],
    ]);
    expect(slack.callsTo('chat.postMessage')[1]?.body.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'working' } },
    ]);
  });

  it('refuses blocks over Slack’s limits like Slack does', async () => {
    slack = await startFakeSlackApi();
    const web = client(slack.botToken);
    const post = (blocks: unknown[]) =>
      web.chat.postMessage({ channel: 'C1', text: 'x', blocks } as never).then(
        () => 'ok',
        (error: { data?: { error?: string } }) => error.data?.error,
      );
    const section = (length: number) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: 'x'.repeat(length) },
    });
    expect(await post([section(3_000)])).toBe('ok');
    expect(await post([section(3_001)])).toBe('invalid_blocks');
    expect(await post(Array.from({ length: 51 }, () => section(1)))).toBe('invalid_blocks');
    expect(await post([{ type: 'markdown', text: 'x'.repeat(12_001) }])).toBe('msg_blocks_too_long');
    expect(await post([{ type: 'markdown', text: 'x'.repeat(11_000) }, section(2_900)])).toBe(
      'msg_blocks_too_long',
    );
    expect(await post([{ type: 'markdown', text: 'x'.repeat(9_000) }, section(2_900)])).toBe('ok');
  });

  it('rate-limits on demand with Retry-After, which the client honours by retrying', async () => {
    slack = await startFakeSlackApi();
    slack.rateLimitNext('chat.postMessage');
    const web = new webApi.WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 2, minTimeout: 1, maxTimeout: 5 },
    });
    await web.chat.postMessage({ channel: 'C1', text: 'eventually' });
    expect(slack.calls.map((call) => call.method)).toEqual([
      'chat.postMessage#rate-limited',
      'chat.postMessage',
    ]);
  });

  it('serves files only with the bot token', async () => {
    slack = await startFakeSlackApi();
    const file = slack.addFile({
      id: 'F1',
      name: 'a.pdf',
      mimetype: 'application/pdf',
      bytes: new Uint8Array([37, 80]),
    });
    const url = String(file.url_private_download);
    const anonymous = await fetch(url);
    expect(anonymous.headers.get('content-type')).toMatch(/text\/html/);
    const authorised = await fetch(url, { headers: { authorization: `Bearer ${slack.botToken}` } });
    expect(authorised.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await authorised.arrayBuffer())).toEqual(new Uint8Array([37, 80]));
  });

  it('streams a message with chat.startStream/appendStream/stopStream under their argument rules, and can refuse', async () => {
    slack = await startFakeSlackApi();
    const web = client(slack.botToken);
    const root = await web.chat.postMessage({ channel: 'C1', text: 'root' });
    const threadTs = String(root.ts);
    // Outside a DM, a recipient is required.
    await expect(
      web.chat.startStream({ channel: 'C1', thread_ts: threadTs, markdown_text: 'Hel' }),
    ).rejects.toMatchObject({ data: { error: 'invalid_arguments' } });
    const started = await web.chat.startStream({
      channel: 'C1',
      thread_ts: threadTs,
      markdown_text: 'Hel',
      recipient_team_id: slack.teamId,
      recipient_user_id: 'U1',
    });
    const ts = String(started.ts);
    await web.chat.appendStream({ channel: 'C1', ts, markdown_text: 'lo' });
    await web.chat.stopStream({ channel: 'C1', ts, blocks: [{ type: 'divider' }] });
    const [message] = slack.messages('C1', threadTs).filter((each) => each.ts === ts);
    expect(message).toMatchObject({ text: 'Hello', streaming: false, blocks: [{ type: 'divider' }] });
    await expect(web.chat.appendStream({ channel: 'C1', ts, markdown_text: '!' })).rejects.toMatchObject({
      data: { error: 'message_not_in_streaming_state' },
    });
    slack.setStreamingSupported(false);
    await expect(
      web.chat.startStream({ channel: 'D1', thread_ts: threadTs, markdown_text: 'x' }),
    ).rejects.toMatchObject({ data: { error: 'not_allowed' } });
  });

  it("takes Slack's feedback element only in a context_actions block and within its limits, and can refuse it", async () => {
    slack = await startFakeSlackApi();
    const web = client(slack.botToken);
    const choice = (text: string, value = 'v') => ({ text: { type: 'plain_text', text }, value });
    const feedback = (positive = choice('👍'), negative = choice('👎')) => ({
      type: 'feedback_buttons',
      action_id: 'vote',
      positive_button: positive,
      negative_button: negative,
    });
    const post = (blocks: unknown[]) =>
      web.chat.postMessage({ channel: 'C1', text: 'answer', blocks: blocks as never });
    await expect(post([{ type: 'context_actions', elements: [feedback()] }])).resolves.toMatchObject({
      ok: true,
    });
    for (const refused of [
      [{ type: 'actions', elements: [feedback()] }],
      [{ type: 'context_actions', elements: [] }],
      [{ type: 'context_actions', elements: [feedback(choice('x'.repeat(76)))] }],
      [{ type: 'context_actions', elements: [feedback(choice('👍', 'v'.repeat(2_001)))] }],
      [{ type: 'context_actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'b' } }] }],
    ])
      await expect(post(refused)).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    slack.setFeedbackButtonsSupported(false);
    await expect(post([{ type: 'context_actions', elements: [feedback()] }])).rejects.toMatchObject({
      data: { error: 'invalid_blocks' },
    });
    const root = await web.chat.postMessage({ channel: 'C1', text: 'question' });
    const stream = await web.chat.startStream({
      channel: 'C1',
      thread_ts: String(root.ts),
      markdown_text: 'An answer',
      recipient_team_id: slack.teamId,
      recipient_user_id: 'U1',
    });
    await expect(
      web.chat.stopStream({
        channel: 'C1',
        ts: String(stream.ts),
        blocks: [{ type: 'context_actions', elements: [feedback()] }] as never,
      }),
    ).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    // Refused, the stream is still open and can stop with other blocks.
    await expect(web.chat.stopStream({ channel: 'C1', ts: String(stream.ts) })).resolves.toMatchObject({
      ok: true,
    });
  });
});

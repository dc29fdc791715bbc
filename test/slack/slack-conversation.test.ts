import { afterEach, describe, expect, it } from 'vitest';
import {
  blockText,
  defaultChannel,
  isPlaceholder,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';
import { clarifyingQuestion, slackModel } from './slack-model.ts';

describe('Slack conversations in threads', () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function clarifyThenReply(restartInBetween: boolean) {
    harness = await startSlackHarness();
    const h = harness;
    const ts = await h.mention('How do I configure the thingy?');
    const [question] = await h.waitForReply(defaultChannel, ts);
    expect(question && blockText(question)).toContain(clarifyingQuestion);
    expect(question?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(
      false,
    );

    if (restartInBetween) await h.restart();

    // The reply in the thread carries no mention: the bot knows it converses here.
    await h.message('I mean the loop in the script', { threadTs: ts });
    const replies = await h.waitForReply(defaultChannel, ts, 2);
    const answer = replies[1];
    expect(answer && blockText(answer)).not.toContain(clarifyingQuestion);
    expect(answer?.blocks.some((block) => (block as { type: string }).type === 'context_actions')).toBe(true);
    // The clarification resumed the same conversation: the model saw the original question.
    const lastRewrite = h.ollama
      .chatRequests()
      .filter((request) => request.format)
      .at(-1);
    expect(JSON.stringify(lastRewrite?.messages)).toContain('thingy');
  }

  // Asking back and resuming on the thread reply (no restart) is in the platform contract suite.
  it('resumes the clarification after the bot restarted between question and reply', async () => {
    await clarifyThenReply(true);
  });

  it('says so in the thread when the conversation stops instead of answering', async () => {
    harness = await startSlackHarness({ environment: { RAGENT_MAX_CLARIFICATIONS: '0' } });
    const ts = await harness.mention('What about the thingy?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    expect(reply?.text).toMatch(/^:octagonal_sign: /);
    expect(reply?.text).toMatch(/ask again/i);
  });

  // Ignoring replies in threads the bot is not part of: the platform contract suite.

  it('stop() stops receiving and waits for the answer in flight', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.ollama.setChat(async (request, index) => {
      const reply = await slackModel(request, index);
      return 'fail' in reply ? reply : { ...reply, delayMs: 200 };
    });
    const ts = await h.mention('A slow question about loops');
    await h.slack.waitFor(
      () => h.slack.messages(defaultChannel, ts).length > 0 || undefined,
      5_000,
      'the status',
    );
    await h.adapter.stop();
    const replies = h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    expect(replies).toHaveLength(1);
    expect(replies[0] && isPlaceholder(replies[0])).toBe(false);
    await expect(h.mention('anyone?')).rejects.toThrow();
  });

  it('tells the thread to ask again when a stop cut its answer short', async () => {
    harness = await startSlackHarness({ stopTimeoutMs: 100 });
    const h = harness;
    h.ollama.setChat(async (request, index) => {
      const reply = await slackModel(request, index);
      return 'fail' in reply ? reply : { ...reply, delayMs: 1_000 };
    });
    const ts = await h.mention('A very slow question');
    await h.slack.waitFor(() => h.ollama.chatRequests().length > 0, 5_000, 'the model to be asked');
    await h.adapter.stop();
    const replies = h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    expect(replies.map((message) => message.text)).toEqual([
      expect.stringMatching(/restarting and could not finish answering this; please ask again/),
    ]);
  });

  it('tells the thread clearly when Ollama is down, and logs details without any token', async () => {
    const logLines: string[] = [];
    harness = await startSlackHarness({ logLines });
    await harness.ollama.close();
    const ts = await harness.mention('Is anyone there?');
    const [reply] = await harness.waitForReply(defaultChannel, ts);
    const text = reply ? blockText(reply) : '';
    expect(text).toMatch(/:warning:/);
    expect(text).toMatch(/Ollama|model/i);
    expect(text).toMatch(/Reference: Ev/);
    const log = logLines.join('');
    const eventId = /Reference: (Ev\d+)/.exec(text)?.[1] ?? 'missing';
    expect(log).toMatch(
      new RegExp(`"eventId":"${eventId}"[^\n]*"turn failed"|"turn failed"[^\n]*${eventId}`),
    );
    // Bolt and the Web API client log at debug level too (request bodies, headers): never a token.
    expect(log).toContain('chat.postMessage');
    for (const secret of [harness.slack.botToken, harness.slack.appToken, 'test-signing-secret']) {
      expect(log).not.toContain(secret);
    }
  });
});

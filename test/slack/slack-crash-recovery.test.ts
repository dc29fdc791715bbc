/**
 * Never a silent thread after a crash: `ragent start` takes a mention, its model never answers, and
 * it is killed with SIGKILL mid-turn (see bot-lifecycle). Slack will not redeliver the event, so the
 * next start must tell that thread, once, to ask again — and answer when asked again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  blockText,
  defaultChannel,
  isPlaceholder,
  type SlackHarness,
  startSlackHarness,
} from './slack-harness.ts';

const restartedNotice = /restarted before it could finish answering this; please ask again/;

describe('Slack after a crash', { timeout: 90_000 }, () => {
  let harness: SlackHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('tells a thread whose answer a crash cut short to ask again, once, and answers it again', async () => {
    harness = await startSlackHarness();
    const h = harness;
    const ts = await h.crashMidTurn(() => h.mention('How do I loop over files?'));
    const thread = () => h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    const notices = () => thread().filter((message) => restartedNotice.test(message.text));
    // Cut short: the placeholder ("Working on it…", or already a progress line) and nothing else.
    expect(thread().map(isPlaceholder)).toEqual([true]);

    await h.resume();
    // The placeholder itself now says what happened; nothing else was posted.
    expect(thread()).toHaveLength(1);
    expect(notices()).toHaveLength(1);

    await h.restart();
    expect(notices()).toHaveLength(1);

    await h.mention('How do I loop over files?', { threadTs: ts });
    const [, answer] = await h.waitForReply(defaultChannel, ts, 2);
    expect(answer && blockText(answer)).toContain('Sources');
    expect(notices()).toHaveLength(1);
  });

  it('posts the notice in the thread when the assistant status stood in for a placeholder', async () => {
    harness = await startSlackHarness();
    const h = harness;
    h.slack.setAssistantStatusSupported(true);
    const ts = await h.crashMidTurn(() => h.mention('How do I loop over files?'));
    const thread = () => h.slack.messages(defaultChannel, ts).filter((message) => message.ts !== ts);
    expect(thread()).toEqual([]);

    await h.resume();
    expect(thread().map((message) => restartedNotice.test(message.text))).toEqual([true]);
  });
});

/**
 * Never a silent thread after a crash: `ragent start` takes a mention, starts the thread, shows its
 * status and is killed with SIGKILL while the model has not answered (see bot-lifecycle). Discord
 * will not redeliver the message, so the next start must tell that thread, once, to ask again — and
 * answer when asked again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const restartedNotice = /restarted before it could finish answering this; please ask again/;

describe('Discord after a crash', { timeout: 90_000 }, () => {
  let harness: DiscordHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('tells a thread whose answer a crash cut short to ask again, once, and answers it again', async () => {
    harness = await startDiscordHarness();
    const h = harness;
    const { discord } = h;
    const { threadId } = await h.crashMidTurn(() => h.mention('How do I write a while loop?'));
    const botMessages = () =>
      discord.channelMessages(threadId).filter((message) => message.author.id === discord.bot.id);
    const notices = () => botMessages().filter((message) => restartedNotice.test(message.content));
    // Cut short: the status message ("⏳ Thinking…", or already a progress line) and nothing else.
    expect(botMessages().map((message) => message.content.startsWith('⏳ '))).toEqual([true]);

    await h.resume();
    // The status message itself now says what happened; nothing else was posted, nobody pinged.
    expect(botMessages()).toHaveLength(1);
    expect(notices()).toHaveLength(1);
    expect(botMessages()[0]?.allowed_mentions).toEqual({ parse: [], replied_user: false });

    await h.restart();
    expect(notices()).toHaveLength(1);

    discord.postMessage({ channelId: threadId, content: 'How do I write a while loop?', mentionBot: true });
    const [notice, answer] = await h.settled(threadId, 2);
    expect(notice?.content).toMatch(restartedNotice);
    expect(answer?.content).toContain('The documents say what you need.');
  });
});

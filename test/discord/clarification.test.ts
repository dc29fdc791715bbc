import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordHarness, startDiscordHarness, userMessageOf } from './discord-harness.ts';

describe('Discord: clarifying questions', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  function askBackOnce(target: DiscordHarness): void {
    target.scripts.rewrite = (request) => {
      const clarified = /Clarifications so far/.test(request.messages.at(-1)?.content ?? '');
      return {
        content: JSON.stringify(
          clarified
            ? { isClear: true, questions: ['How do I loop over files in bash?'], clarificationNeeded: '' }
            : { isClear: false, questions: [], clarificationNeeded: 'Which shell do you mean: bash or zsh?' },
        ),
      };
    };
  }

  it('asks back in the thread and resumes when the user replies to the question', async () => {
    harness = await startDiscordHarness();
    askBackOnce(harness);
    const { discord } = harness;
    const { threadId } = await harness.mention('how do I loop over files?');
    const [question] = await harness.settled(threadId);
    expect(question?.content).toMatch(/^❓ Which shell do you mean: bash or zsh\?/);
    expect(question?.content).toContain('Reply to this message');
    expect(question?.components).toEqual([]);

    discord.postMessage({ channelId: threadId, content: 'bash', replyTo: question!.id });
    const [, answer] = await harness.settled(threadId, 2);
    expect(answer?.content).toContain('The documents say what you need.');
    expect(harness.requestsOf('rewrite').at(-1)?.messages.at(-1)?.content).toContain(
      'the user replied "bash"',
    );
  });

  it('resumes the pending question after the bot restarts', async () => {
    harness = await startDiscordHarness();
    askBackOnce(harness);
    const { discord } = harness;
    const { threadId } = await harness.mention('how do I loop over files?');
    const [question] = await harness.settled(threadId);
    expect(question?.content).toMatch(/^❓ /);

    await harness.restart();
    expect(discord.identifiedIntents()).toHaveLength(1);
    discord.postMessage({ channelId: threadId, content: 'bash of course', mentionBot: true });
    const [, answer] = await harness.settled(threadId, 2);
    expect(answer?.content).toContain('The documents say what you need.');
    expect(userMessageOf(harness.requestsOf('rewrite').at(-1)!)).toBe('how do I loop over files?');
    expect(harness.requestsOf('rewrite').at(-1)?.messages.at(-1)?.content).toContain(
      'the user replied "bash of course"',
    );
  });

  it('with the Message Content intent, the bot subscribes to message text', async () => {
    harness = await startDiscordHarness({ environment: { DISCORD_MESSAGE_CONTENT: 'true' } });
    // A plain reply in the thread continuing the conversation: the platform contract suite.
    expect((harness.discord.identifiedIntents()[0] ?? 0) & (1 << 15)).not.toBe(0);
  });

  it('says so in the thread when it gives up asking', async () => {
    harness = await startDiscordHarness({ environment: { RAGENT_MAX_CLARIFICATIONS: '0' } });
    harness.scripts.rewrite = () => ({
      content: JSON.stringify({
        isClear: false,
        questions: [],
        clarificationNeeded: 'Which one do you mean?',
      }),
    });
    const { threadId } = await harness.mention('that thing');
    const [reply] = await harness.settled(threadId);
    expect(reply?.content).toMatch(/^⏹️ .*could not work out what you are asking/);
  });
});

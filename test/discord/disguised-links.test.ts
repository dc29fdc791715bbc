import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

describe('Discord: disguised links', () => {
  let harness: DiscordHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('shows the real target of a link whose text is another address, in answers and clarifications', async () => {
    harness = await startDiscordHarness();
    harness.scripts.orchestrator = () => ({
      content: 'Download it from [https://trusted.example](https://evil.example/get).',
    });
    const first = await harness.mention('Where do I download it?');
    const [answer] = await harness.settled(first.threadId);
    expect(answer?.content).toContain('https://evil.example/get');
    expect(answer?.content).not.toContain('trusted.example');

    harness.scripts.rewrite = () => ({
      content: JSON.stringify({
        isClear: false,
        questions: [],
        clarificationNeeded: 'Do you mean [www.bank.example](http://phish.example)?',
      }),
    });
    const second = await harness.mention('Which site?');
    const [question] = await harness.settled(second.threadId);
    expect(question?.content).toContain('http://phish.example');
    expect(question?.content).not.toContain('bank.example');
  });
});

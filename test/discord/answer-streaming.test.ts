import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const writingMark = '✍️ writing…';

describe('Discord: the answer appears as it is written', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('edits the status message with the text so far, then replaces it with the answer, sources and buttons', async () => {
    harness = await startDiscordHarness();
    const answer = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: `${answer}\n\nSources: bash.pdf (p. 1)`, tokenDelayMs: 40 }
        : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops', limit: 3 } }] };
    const { threadId } = await harness.mention('how do loops work?');
    const [message] = await harness.settled(threadId);
    expect(message?.content.startsWith(answer)).toBe(true);
    expect(message?.components).toHaveLength(2);
    const history = harness.discord.contentHistory(message?.id ?? '');
    const streamed = history.filter((content) => content.endsWith(writingMark));
    // Some text showed while it was written, growing, never with the buttons.
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed[0]?.startsWith('word0')).toBe(true);
    expect(streamed.at(-1)?.length).toBeGreaterThanOrEqual(streamed[0]?.length ?? 0);
  });

  it('continues a long streamed answer in new messages, never inside a code block, and ends with the answer', async () => {
    harness = await startDiscordHarness();
    const code = [
      '```bash',
      ...Array.from({ length: 60 }, (_, i) => `echo "line ${i}: some text here"`),
      '```',
    ];
    const answer = `${'Intro sentence about loops. '.repeat(30)}\n\n${code.join('\n')}\n\nThe end.`;
    expect(answer.length).toBeGreaterThan(2_500);
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: answer, tokenDelayMs: 2 }
        : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops', limit: 3 } }] };
    const { threadId } = await harness.mention('show me loops');
    // About 400 words streamed and edited under the edit budget: on a loaded machine this takes
    // longer than the default wait, which only bounds how long a failure takes to show.
    const messages = await harness.discord.waitFor(
      () => {
        const sent = harness.discord.channelMessages(threadId);
        return (sent.at(-1)?.components.length ?? 0) > 0 ? sent : undefined;
      },
      25_000,
      'the finished answer',
    );
    expect(messages.length).toBeGreaterThanOrEqual(2);
    // The second message began while the answer was still being written.
    const second = harness.discord.contentHistory(messages[1]?.id ?? '');
    expect(second[0]?.endsWith(writingMark)).toBe(true);
    for (const message of messages) {
      expect(message.content.length).toBeLessThanOrEqual(2_000);
      expect(message.content.endsWith(writingMark)).toBe(false);
      for (const content of harness.discord.contentHistory(message.id)) {
        const fences = content.split('\n').filter((line) => line.startsWith('```'));
        expect(fences.length % 2).toBe(0);
      }
    }
    const joined = messages.map((message) => message.content).join('\n');
    for (let i = 0; i < 60; i++) expect(joined).toContain(`echo "line ${i}: some text here"`);
    expect(joined).toContain('The end.');
    expect(joined.indexOf('line 59')).toBeLessThan(joined.indexOf('The end.'));
  });
});

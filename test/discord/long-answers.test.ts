import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

/** About 5,000 characters of Markdown with a long code block in the middle. */
function longAnswer(): string {
  const prose = (topic: string) =>
    Array.from(
      { length: 8 },
      (_, i) => `Paragraph ${i + 1} about ${topic}: ${'the shell reads each line and runs it. '.repeat(4)}`,
    ).join('\n\n');
  const code = [
    '```bash',
    ...Array.from({ length: 44 }, (_, i) => `for file in *.txt; do echo "line ${i}: $file"; done`),
    '```',
  ].join('\n');
  return `${prose('loops')}\n\n${code}\n\n${prose('conditionals')}`;
}

describe('Discord: long answers and mentions', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('splits a 5,000-character answer under 2,000 characters a message, code blocks intact', async () => {
    harness = await startDiscordHarness();
    const answer = longAnswer();
    expect(answer.length).toBeGreaterThan(5_000);
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: answer }
        : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'loops', limit: 3 } }] };
    const { threadId } = await harness.mention('tell me everything about loops');
    const messages = await harness.discord.waitFor(() => {
      const sent = harness.discord.channelMessages(threadId);
      return sent.length >= 3 && (sent.at(-1)?.components.length ?? 0) > 0 ? sent : undefined;
    });
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const message of messages) {
      expect(message.content.length).toBeLessThanOrEqual(2_000);
      const fences = message.content.split('\n').filter((line) => line.startsWith('```'));
      expect(fences.length % 2).toBe(0);
      for (const [index, fence] of fences.entries()) expect(fence).toBe(index % 2 === 0 ? '```bash' : '```');
    }
    // Nothing lost: every code line and paragraph arrives, in order.
    const joined = messages.map((message) => message.content).join('\n');
    for (let i = 0; i < 44; i++) expect(joined).toContain(`echo "line ${i}: $file"`);
    expect(joined.indexOf('Paragraph 8 about loops')).toBeLessThan(
      joined.indexOf('Paragraph 1 about conditionals'),
    );
    // Feedback buttons only under the last part.
    expect(messages.slice(0, -1).every((message) => message.components.length === 0)).toBe(true);
  });

  it('never pings anyone, whatever the answer says', async () => {
    harness = await startDiscordHarness();
    const pings = '@everyone @here <@&123456789012345678> <@223456789012345678> look at this';
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: pings }
        : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'x', limit: 3 } }] };
    const { threadId } = await harness.mention('@everyone what is up?');
    const [reply] = await harness.settled(threadId);
    expect(reply?.content).toContain('@everyone @here');
    const bodies = harness.discord.sentBodies();
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const { body } of bodies) expect(body.allowed_mentions).toEqual({ parse: [], replied_user: false });
  });
});

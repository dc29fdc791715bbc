import { afterEach, describe, expect, it, vi } from 'vitest';
import { startDiscord } from '../../src/platforms/discord/start-discord.ts';
import { randomUser } from '../fakes/fake-discord.ts';
import { createTestServices } from '../support/test-services.ts';
import { type DiscordHarness, startDiscordHarness, userMessageOf } from './discord-harness.ts';

describe('Discord: mention → thread → status → answer', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('starts a thread from the mention, shows a status at once, then replaces it with the answer', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const { threadId } = await harness.mention('How do I write a while loop?');
    const thread = discord.threads().find((each) => each.id === threadId);
    expect(thread?.name).toBe('How do I write a while loop?');

    const [reply, ...others] = await harness.settled(threadId);
    expect(others).toEqual([]);
    const history = discord.contentHistory(reply!.id);
    expect(history[0]).toBe('⏳ Working on it…');
    // Statuses, then the answer as it was written, then the answer itself.
    expect(history.slice(1, -1).every((text) => text.startsWith('⏳ ') || text.endsWith('✍️ writing…'))).toBe(
      true,
    );
    expect(reply?.content).toContain('The documents say what you need.');
    // 👍/👎, then Verify and Ask a person.
    expect(reply?.components).toHaveLength(2);
    expect(harness.requestsOf('rewrite').map(userMessageOf)).toEqual(['How do I write a while loop?']);
  });

  it('answers inside an existing thread, continues it, and ignores bots and unaddressed messages', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const { threadId } = await harness.mention('first question');
    const [answer] = await harness.settled(threadId);

    // Without the Message Content intent, a plain message in the thread is not for the bot…
    discord.postMessage({ channelId: threadId, content: 'thanks everyone' });
    discord.postMessage({
      channelId: threadId,
      content: 'beep',
      author: { ...randomUser('other-bot'), bot: true },
      mentionBot: true,
    });
    // …but a reply to its answer is.
    discord.postMessage({ channelId: threadId, content: 'and the second one?', replyTo: answer!.id });
    const messages = await harness.settled(threadId, 2);
    expect(messages).toHaveLength(2);
    expect(harness.requestsOf('rewrite').map(userMessageOf)).toEqual([
      'first question',
      'and the second one?',
    ]);
    expect(discord.threads()).toHaveLength(1);
  });

  it('answers a mention inside an existing thread right there', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    const threadId = discord.addThread(channelId, 'team discussion');
    discord.postMessage({ channelId: threadId, content: 'what about loops?', mentionBot: true });
    const [reply] = await harness.settled(threadId);
    expect(reply?.content).toContain('The documents say what you need.');
    expect(discord.threads().map((thread) => thread.id)).toEqual([threadId]);
    const row = reply!.components[0] as { components: Array<{ custom_id: string }> };
    const answerId = row.components[0]!.custom_id;
    discord.clickButton({ message: reply!, customId: answerId });
    await vi.waitFor(async () => {
      const feedback = await harness.services.coordination.listFeedback({
        threadId: `discord:${guildId}:${threadId}`,
      });
      expect(feedback).toHaveLength(1);
    });
  });

  it('handles each message exactly once, even when Discord delivers it twice', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const { message, threadId } = await harness.mention('only once please');
    await harness.settled(threadId);
    // A gateway replay of the very same message.
    discord.redeliver(message);
    await harness.restart();
    discord.redeliver(message);
    // A later message is still answered, so the duplicates above had their chance to be handled.
    discord.postMessage({ channelId: threadId, content: 'one more', mentionBot: true });
    await harness.settled(threadId, 2);
    expect(harness.requestsOf('rewrite').map(userMessageOf)).toEqual(['only once please', 'one more']);
    expect(discord.threads()).toHaveLength(1);
    expect(
      discord.channelMessages(harness.channelId).filter((each) => each.author.id === discord.bot.id),
    ).toEqual([]);
  });

  it('answers in DMs, in the DM itself', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const message = discord.postDirectMessage({ content: 'hello, what can you do?' });
    const [reply] = await harness.settled(message.channel_id);
    expect(reply?.content).toContain('The documents say what you need.');
    expect(discord.threads()).toHaveLength(0);
  });

  it('says how to ask when mentioned without a question, and when a reply arrives without its text', async () => {
    harness = await startDiscordHarness();
    const { discord, channelId } = harness;
    discord.postMessage({ channelId, content: '', mentionBot: true });
    const [hint] = await discord.waitFor(() => {
      const sent = discord
        .channelMessages(channelId)
        .filter((message) => message.author.id === discord.bot.id);
      return sent.length > 0 ? sent : undefined;
    });
    expect(hint?.content).toMatch(/^Ask me a question after the mention/);
    expect(discord.threads()).toEqual([]);

    const { threadId } = await harness.mention('first question');
    const [answer] = await harness.settled(threadId);
    // A reply with the ping turned off: Discord hides its text from a bot without the intent.
    discord.postMessage({ channelId: threadId, content: 'bash', replyTo: answer!.id, replyPing: false });
    const [, unreadable] = await harness.settled(threadId, 2);
    expect(unreadable?.content).toMatch(/can't read replies that don't mention me/);
  });

  it('refuses to start with a token Discord rejects, saying what to check', async () => {
    harness = await startDiscordHarness();
    const services = await createTestServices({
      ollamaUrl: harness.ollama.url,
      environment: { DISCORD_TOKEN: 'not-the-token', DISCORD_API_URL: harness.discord.apiUrl },
    });
    try {
      await expect(startDiscord(services)).rejects.toThrow(
        /Could not connect to Discord .*Check DISCORD_TOKEN/,
      );
    } finally {
      await services.dispose();
    }
  });

  it('says clearly when the model is down, in the thread', async () => {
    harness = await startDiscordHarness();
    harness.ollama.failAlways('http-500');
    const { threadId } = await harness.mention('is anyone there?');
    const [reply] = await harness.settled(threadId);
    expect(reply?.content).toMatch(/^⚠️ /);
    expect(reply?.content).toMatch(/Ollama|model/i);
  });
});

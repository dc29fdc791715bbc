import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

describe('Discord: buttons, help and shutdown', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('stores 👍/👎 with the thread and answer, and thanks only the person who clicked', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const { threadId } = await harness.mention('what is a loop?');
    const [answer] = await harness.settled(threadId);
    const row = answer?.components[0] as {
      components: Array<{ custom_id: string; emoji: { name: string } }>;
    };
    expect(row.components.map((button) => button.emoji.name)).toEqual(['👍', '👎']);

    const bob = randomUser('bob');
    const up = discord.clickButton({ message: answer!, customId: row.components[0]!.custom_id, user: bob });
    await discord.waitFor(() => up.callbacks.length === 1);
    expect(up.callbacks[0]).toMatchObject({ type: 4, data: { flags: 64 } });
    const down = discord.clickButton({ message: answer!, customId: row.components[1]!.custom_id, user: bob });
    await discord.waitFor(() => down.callbacks.length === 1);

    const threadFeedback = () =>
      harness.services.coordination.listFeedback({ threadId: `discord:${harness.guildId}:${threadId}` });
    await vi.waitFor(async () =>
      expect(await threadFeedback()).toEqual([expect.objectContaining({ user: bob.id, value: 'down' })]),
    );
    const feedback = await threadFeedback();
    expect(row.components[0]!.custom_id).toContain(feedback[0]!.answerId);
  });

  it('explains itself with /ragent help, privately', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    const help = discord.runCommand({ guildId, channelId, subcommand: 'help' });
    await discord.waitFor(() => help.original);
    expect(help.callbacks[0]?.data).toMatchObject({ flags: 64, allowed_mentions: { parse: [] } });
    expect(help.original?.content).toContain('/ragent ingest');
    expect(help.original?.content).toContain('mention me or reply to one of my messages');
  });

  it('finishes the answers in flight before stopping', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const rewrite = harness.scripts.rewrite;
    harness.scripts.rewrite = async (request, call) => ({ ...(await rewrite(request, call)), delayMs: 400 });
    const { threadId } = await harness.mention('slow question');
    await discord.waitFor(() => discord.channelMessages(threadId).length === 1);
    await harness.adapter.stopTaking();
    // Stopping: a new mention is told to come back, and starts no thread (its reply is the barrier).
    discord.postMessage({ channelId: harness.channelId, content: 'anyone?', mentionBot: true });
    await discord.waitFor(() =>
      discord.channelMessages(harness.channelId).some((message) => /restarting/.test(message.content)),
    );
    expect(discord.threads()).toHaveLength(1);
    await harness.adapter.stop();
    expect(discord.channelMessages(threadId)[0]?.content).toContain('The documents say what you need.');
  });

  it('tells the thread when a stop cut an answer short', async () => {
    harness = await startDiscordHarness({ stopTimeoutMs: 100 });
    const { discord } = harness;
    harness.scripts.rewrite = () => ({ content: '{}', delayMs: 1_000 });
    const { threadId } = await harness.mention('very slow question');
    await discord.waitFor(() => discord.channelMessages(threadId).length === 1);
    await harness.adapter.stop();
    expect(discord.channelMessages(threadId)[0]?.content).toMatch(
      /restarting and could not finish answering this; please ask again/,
    );
  });
});

/**
 * Discord's "Ask ragent" message command, at the wire: acknowledged at once and only to the person
 * who chose it, the thread started from the message over REST (or the thread a person already
 * started from it), the asker recorded as the turn's user, and a thread that cannot be started
 * told in the channel rather than left silent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { discordErrorMessages } from '../../src/platforms/discord/discord-error-messages-en.ts';
import { askInThreadText } from '../../src/turns/messages-en.ts';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const threadFailedText = discordErrorMessages.PERMISSION_DENIED.threadNotStarted();

describe('Discord: "Ask ragent" on a message', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('answers privately that it answers in the thread, starts the thread from the message, and records the asker', async () => {
    harness = await startDiscordHarness();
    const { discord, channelId } = harness;
    const poster = randomUser('poster');
    const asker = randomUser('asker');
    const message = discord.postMessage({
      channelId,
      author: poster,
      content: 'How do arrays work in bash?',
    });
    const asked = discord.runMessageCommand({ message, name: 'Ask ragent', user: asker });
    await discord.waitFor(() => asked.original);
    expect(asked.callbacks[0]).toMatchObject({
      type: 4,
      data: { content: askInThreadText, flags: 64, allowed_mentions: { parse: [] } },
    });
    const [answer] = await harness.settled(message.id);
    expect(answer?.content).toBeTruthy();
    const started = discord.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith(`/messages/${message.id}/threads`),
    );
    expect(started).toHaveLength(1);
    expect(discord.threads().find((thread) => thread.id === message.id)?.name).toBe(
      'How do arrays work in bash?',
    );
    await vi.waitFor(async () => {
      const turns = await harness.services.turnHistory.listTurns();
      expect(turns.find((turn) => turn.question === 'How do arrays work in bash?')?.user).toBe(asker.id);
    });
  });

  it('answers in the thread people already started from the message', async () => {
    // Other people's messages read over REST carry their text only with the Message Content intent.
    harness = await startDiscordHarness({ environment: { DISCORD_MESSAGE_CONTENT: 'true' } });
    const { discord, channelId } = harness;
    const message = discord.postMessage({ channelId, content: 'What is a here document?' });
    const thread = discord.addThreadFromMessage(message, 'here documents');
    const sam = randomUser('sam');
    discord.setNickname(harness.guildId, sam, 'Sam from Ops');
    discord.postMessage({ channelId: thread, author: sam, content: 'I keep mixing up <<EOF and <<-EOF' });
    discord.runMessageCommand({ message, name: 'Ask ragent' });
    const [answer] = await harness.settled(thread);
    expect(answer?.content).toBeTruthy();
    // The replies people wrote under it are the conversation so far; the message itself is the question.
    const rewrite = harness.requestsOf('rewrite').at(-1);
    const prompt = rewrite?.messages.map((each) => each.content).join('\n') ?? '';
    // Named as the server shows them: their nickname, looked up over REST.
    expect(prompt).toContain('Sam from Ops: I keep mixing up <<EOF and <<-EOF');
    expect(prompt).toContain('User message:\nWhat is a here document?');
    expect(prompt).not.toContain(': What is a here document?');
  });

  it('tells the channel when it may not start the thread', async () => {
    harness = await startDiscordHarness();
    const { discord, channelId } = harness;
    const message = discord.postMessage({ channelId, content: 'How do traps work?' });
    discord.failNext(/^POST \/api\/v10\/channels\/\d+\/messages\/\d+\/threads$/, 403);
    discord.runMessageCommand({ message, name: 'Ask ragent' });
    const told = await discord.waitFor(() =>
      discord
        .channelMessages(channelId)
        .find((each) => each.author.id === discord.bot.id && each.content.includes(threadFailedText)),
    );
    expect(told.content).toContain(threadFailedText);
  });
});

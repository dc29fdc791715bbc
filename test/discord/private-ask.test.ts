/**
 * Discord's side of private answers (`/ragent ask question:`), over the gateway and REST fakes: the
 * deferred reply is ephemeral (flags 64) and becomes the answer with Share; a long answer continues in
 * ephemeral follow-ups; Share posts once in the channel, crediting the asker with a mention that pings
 * nobody; a second press is told "already shared", privately.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { alreadySharedText, sharedNoteText } from '../../src/turns/messages-en.ts';
import { type InteractionRecord, randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

describe('Discord: /ragent ask', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  const alice = randomUser('alice');
  const ask = (question: string) =>
    harness.discord.runCommand({
      guildId: harness.guildId,
      channelId: harness.channelId,
      user: alice,
      subcommand: 'ask',
      options: [{ name: 'question', type: 3, value: question }],
    });
  const shareId = (record: InteractionRecord) =>
    /"custom_id":"(ragent:share:[^"]+)"/.exec(JSON.stringify(record.original?.components ?? []))?.[1];

  it('answers in an ephemeral deferred reply and shares it once, crediting the asker without a ping', async () => {
    harness = await startDiscordHarness();
    const { discord } = harness;
    const question = 'Q-discord: how do pipes work?';
    const record = ask(question);
    await discord.waitFor(() => shareId(record), 15_000, 'the private answer with Share');
    expect(record.callbacks[0]).toMatchObject({ type: 5, data: { flags: 64 } });
    expect(record.original?.flags).toBe(64);
    const customId = shareId(record)!;
    const publicCopies = () =>
      discord.channelMessages(harness.channelId).filter((message) => message.content.includes(question));
    expect(publicCopies()).toEqual([]);

    const first = discord.clickButton({
      message: record.original!,
      customId,
      user: alice,
      channelId: harness.channelId,
    });
    await discord.waitFor(() => record.original?.content.includes(sharedNoteText), 15_000, 'the shared note');
    expect(first.callbacks[0]?.type).toBe(6);
    const [copy, ...more] = publicCopies();
    expect(more).toEqual([]);
    expect(copy?.content).toContain(`<@${alice.id}> asked: Q-discord: how do pipes work?`);
    expect(copy?.allowed_mentions).toMatchObject({ parse: [] });
    expect(JSON.stringify(copy?.components)).toContain('ragent:feedback:up:');
    expect(JSON.stringify(record.original?.components)).not.toContain('ragent:share:');

    // A client still showing the button presses it again: told privately, nothing posted.
    const second = discord.clickButton({
      message: record.original!,
      customId,
      user: alice,
      channelId: harness.channelId,
    });
    const [told] = await discord.waitFor(() => (second.followUps.length > 0 ? second.followUps : undefined));
    expect(told?.content).toBe(alreadySharedText);
    expect(told?.flags).toBe(64);
    expect(publicCopies()).toHaveLength(1);
  });

  it('tells the asker privately, never the channel, when a crash cut a private answer short', {
    timeout: 90_000,
  }, async () => {
    harness = await startDiscordHarness();
    const h = harness;
    const record = await h.crashMidTurn(async () => ask('Q-crashed: how do pipes work?'));
    // Cut short: the deferred ephemeral reply, not yet an answer.
    expect(record.original?.content ?? '').not.toMatch(/restarted/);
    await h.resume();
    expect(record.original?.content).toMatch(/restarted before it could finish answering this/);
    expect(record.original?.flags).toBe(64);
    expect(h.discord.channelMessages(h.channelId)).toEqual([]);
  });

  it('continues a long private answer in ephemeral follow-ups, Share under the last part', async () => {
    harness = await startDiscordHarness();
    const long = Array.from(
      { length: 60 },
      (_, i) => `Line ${i}: ${'pipes pass output along. '.repeat(4)}`,
    ).join('\n');
    harness.scripts.orchestrator = (request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { content: long }
        : { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'pipes', limit: 3 } }] };
    const record = ask('tell me all about pipes');
    const followUps = await harness.discord.waitFor(
      () =>
        record.followUps.some((message) => message.components.length > 0) ? record.followUps : undefined,
      15_000,
      'the follow-ups',
    );
    expect(record.original?.content).toContain('Line 0:');
    for (const message of followUps) expect(message.flags).toBe(64);
    expect(JSON.stringify(followUps.at(-1)?.components)).toContain('ragent:share:');
    expect(harness.discord.channelMessages(harness.channelId)).toEqual([]);
  });
});

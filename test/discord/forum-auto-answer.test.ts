/**
 * Auto-answer in Discord forums: with auto-answer on for a forum, each new post that asks something
 * (its title, tags and first message judged together) is answered inside the post. The switch is
 * set from inside one of the forum's posts (`channel:`, or by default the post's forum). Without the
 * Message Content intent the command says the bot cannot read what it would answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, startDiscordHarness, userMessageOf } from './discord-harness.ts';

const manageChannels = String(16n | 3072n);

describe('Discord: auto-answer in a forum', () => {
  let harness: DiscordHarness;
  let forumId: string;
  beforeAll(async () => {
    harness = await startDiscordHarness({ environment: { DISCORD_MESSAGE_CONTENT: 'true' } });
    forumId = harness.discord.addForum(harness.guildId, 'help', ['deploys', 'billing']);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const botMessages = (channelId: string) =>
    harness.discord
      .channelMessages(channelId)
      .filter((message) => message.author.id === harness.discord.bot.id);
  const asked = () => harness.requestsOf('rewrite').map(userMessageOf);

  async function autoAnswer(
    channelId: string,
    state: 'on' | 'off',
    options: { channel?: string; permissions?: string } = {},
  ): Promise<string> {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId,
      subcommand: 'autoanswer',
      user: randomUser('moderator'),
      permissions: options.permissions ?? manageChannels,
      options: [
        { name: 'state', type: 3, value: state },
        ...(options.channel ? [{ name: 'channel', type: 7, value: options.channel }] : []),
      ],
    });
    await harness.discord.waitFor(() => interaction.history.length >= 2, 10_000, '/ragent autoanswer');
    expect(interaction.callbacks[0]?.data?.flags).toBe(64);
    return interaction.original?.content ?? '';
  }

  it('is set for the forum from inside one of its posts, and answers a new question post inside it', async () => {
    const { discord } = harness;
    // Before: a question post is left alone (the mention in the channel is the barrier).
    const early = discord.postInForum({
      forumId,
      title: 'How do I rotate the API keys',
      content: 'Asking for ops.',
    });
    const first = await harness.mention('barrier: how do loops work?');
    await harness.settled(first.threadId);
    expect(botMessages(early.postId)).toEqual([]);

    // A moderator inside that post names the forum.
    const reply = await autoAnswer(early.postId, 'on', { channel: forumId });
    expect(reply).toContain(`Auto-answer is on in <#${forumId}>`);
    expect(
      await harness.services.coordination.channelSetting(
        `discord:${harness.guildId}:${forumId}`,
        'auto-answer',
      ),
    ).toBe('on');

    const post = discord.postInForum({
      forumId,
      title: 'Deploy stuck at step 3',
      content: 'The pipeline hangs after the migration, what should I check?',
      tags: ['deploys'],
    });
    const [answer] = await harness.settled(post.postId);
    expect(answer?.content).toContain('The documents say what you need.');
    // Answered inside the post: no thread of its own.
    expect(discord.threads().filter((thread) => thread.parent_id === forumId)).toHaveLength(2);
    const question = asked().find((text) => text.includes('Deploy stuck at step 3'));
    expect(question).toContain('Tags: deploys');
    expect(question).toContain('The pipeline hangs after the migration');
  });

  it('judges the title with the first message, and leaves posts that ask nothing', async () => {
    const { discord } = harness;
    const titled = discord.postInForum({
      forumId,
      title: 'How do refunds work for annual plans',
      content: 'Customer ACME asked.',
    });
    const notes = discord.postInForum({
      forumId,
      title: 'Release notes v2.3',
      content: 'Shipped today, enjoy.',
    });
    const billing = discord.postInForum({
      forumId,
      title: 'Billing',
      content: 'what is the refund window?',
      tags: ['billing'],
    });
    // The barrier: a later question post, answered.
    const later = discord.postInForum({
      forumId,
      title: 'Where are the runbooks kept?',
      content: 'Looking for the on-call ones.',
    });
    await harness.settled(later.postId);
    await harness.settled(titled.postId);
    expect(botMessages(notes.postId)).toEqual([]);
    expect(asked().join('\n')).not.toContain('Release notes v2.3');
    // "Billing" + a question in the message: the post as a whole asks.
    await harness.settled(billing.postId);
  });

  it('leaves a post addressed to someone else alone', async () => {
    const { discord } = harness;
    const dana = randomUser('dana');
    const post = discord.postInForum({
      forumId,
      title: 'Quick one',
      content: 'can you check the invoice run?',
      mentionUsers: [dana],
    });
    const later = discord.postInForum({
      forumId,
      title: 'Why did the invoice run fail?',
      content: 'It failed at 3am.',
    });
    await harness.settled(later.postId);
    expect(botMessages(post.postId)).toEqual([]);
    expect(asked().join('\n')).not.toContain('check the invoice run');
  });

  it('refuses a member without Manage Channels, only to them, and defaults to the post’s forum', async () => {
    const { discord } = harness;
    const inside = discord.postInForum({
      forumId,
      title: 'Where is the VPN config?',
      content: 'For the new laptop.',
    });
    await harness.settled(inside.postId);
    expect(await autoAnswer(inside.postId, 'off', { permissions: '3072' })).toMatch(
      /^⚠️ Only a member with Manage Channels can turn auto-answer on or off/,
    );
    expect(
      await harness.services.coordination.channelSetting(
        `discord:${harness.guildId}:${forumId}`,
        'auto-answer',
      ),
    ).toBe('on');
    // No channel: given inside a post, the post's forum.
    expect(await autoAnswer(inside.postId, 'off')).toContain(`Auto-answer is off in <#${forumId}>`);
    const after = discord.postInForum({ forumId, title: 'How do I reset 2FA?', content: 'Lost my phone.' });
    const barrier = await harness.mention('barrier: how do loops end?');
    await harness.settled(barrier.threadId);
    expect(botMessages(after.postId)).toEqual([]);
  });
});

describe('Discord: auto-answer without the Message Content intent', () => {
  let harness: DiscordHarness;
  beforeAll(async () => {
    harness = await startDiscordHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('turns it on but says plainly that it cannot read the questions, and what to tick', async () => {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId: harness.channelId,
      subcommand: 'autoanswer',
      permissions: manageChannels,
      options: [{ name: 'state', type: 3, value: 'on' }],
    });
    await harness.discord.waitFor(() => interaction.history.length >= 2, 10_000, '/ragent autoanswer');
    expect(interaction.original?.content).toContain('Auto-answer is on');
    expect(interaction.original?.content).toContain('Message Content Intent');
    const help = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId: harness.channelId,
      subcommand: 'help',
    });
    await harness.discord.waitFor(() => help.history.length >= 2, 10_000, '/ragent help');
    expect(help.original?.content).toContain('Auto-answer: on');
    expect(help.original?.content).toContain('Message Content Intent');
    // Discord withholds the text: a question posted there is not answered (the mention is the barrier).
    const question = harness.discord.postMessage({
      channelId: harness.channelId,
      content: 'How do loops work?',
    });
    const barrier = await harness.mention('barrier: how do loops end?');
    await harness.settled(barrier.threadId);
    expect(harness.discord.threads().some((thread) => thread.id === question.id)).toBe(false);
  });
});

import { Client, Events, GatewayIntentBits, type Message, Partials } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, fakeBotToken, startFakeDiscord } from './fake-discord.ts';
import { shardOfGuild } from './fake-discord-gateway.ts';

describe('fake Discord through the real discord.js client', () => {
  let fake: FakeDiscord;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((each) => each.destroy()));
    await fake?.close();
  });

  async function connect(intents: GatewayIntentBits[], shard?: [number, number]): Promise<Client> {
    const created = new Client({
      intents,
      partials: [Partials.Channel],
      rest: { api: fake.apiUrl },
      ...(shard ? { shards: [shard[0]], shardCount: shard[1] } : {}),
    });
    const ready = new Promise<void>((resolve) => created.once(Events.ClientReady, () => resolve()));
    await created.login(fakeBotToken);
    await ready;
    clients.push(created);
    return created;
  }

  it('logs in over the gateway, sees its guild, and receives a mention', async () => {
    fake = await startFakeDiscord();
    const { guildId, channelId } = fake.addGuild('docs team');
    const bot = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    expect(bot.user?.id).toBe(fake.bot.id);
    expect(bot.guilds.cache.get(guildId)?.name).toBe('docs team');
    expect(fake.requests.find((request) => request.path === '/api/v10/gateway/bot')?.authorization).toBe(
      `Bot ${fakeBotToken}`,
    );

    const received = new Promise<Message>((resolve) => bot.on(Events.MessageCreate, resolve));
    fake.postMessage({ channelId, content: 'what is a loop?', mentionBot: true });
    const message = await received;
    expect(message.content).toBe(`<@${fake.bot.id}> what is a loop?`);
    expect(message.mentions.users.has(fake.bot.id)).toBe(true);
  });

  it('hides content without the Message Content intent, like Discord', async () => {
    fake = await startFakeDiscord();
    const { channelId } = fake.addGuild();
    const bot = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const received: Message[] = [];
    bot.on(Events.MessageCreate, (message) => received.push(message));
    fake.postMessage({ channelId, content: 'just chatting' });
    fake.postMessage({ channelId, content: 'hello bot', mentionBot: true });
    await fake.waitFor(() => received.length === 2);
    expect(received.map((message) => message.content)).toEqual(['', `<@${fake.bot.id}> hello bot`]);
  });

  it('starts a thread from a message, posts and edits in it, and records what was sent', async () => {
    fake = await startFakeDiscord();
    const { channelId } = fake.addGuild();
    const bot = await connect([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const received = new Promise<Message>((resolve) => bot.on(Events.MessageCreate, resolve));
    fake.postMessage({ channelId, content: 'question', mentionBot: true });
    const message = await received;
    const thread = await message.startThread({ name: 'question' });
    expect(thread.isThread()).toBe(true);
    const sent = await thread.send({ content: 'working…', allowedMentions: { parse: [] } });
    await sent.edit({ content: 'done', allowedMentions: { parse: [] } });
    expect(fake.channelMessages(thread.id).map((each) => each.content)).toEqual(['done']);
    expect(fake.contentHistory(sent.id)).toEqual(['working…', 'done']);
    expect(fake.sentBodies().map((body) => body.body.allowed_mentions)).toEqual([
      { parse: [] },
      { parse: [] },
    ]);
  });

  it('delivers a slash command with an attachment and accepts a deferred reply and its edit', async () => {
    fake = await startFakeDiscord();
    const { guildId, channelId } = fake.addGuild();
    const bot = await connect([GatewayIntentBits.Guilds]);
    bot.on(Events.InteractionCreate, async (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      await interaction.deferReply();
      const file = interaction.options.getAttachment('file', true);
      const download = await fetch(file.url);
      await interaction.editReply(
        `${interaction.options.getSubcommand()} ${file.name} ${(await download.arrayBuffer()).byteLength}`,
      );
    });
    const file = fake.addAttachment('notes.pdf', new TextEncoder().encode('%PDF-1.7 tiny'));
    const interaction = fake.runCommand({ guildId, channelId, subcommand: 'ingest', attachments: [file] });
    await fake.waitFor(() => interaction.history.length === 2);
    expect(interaction.callbacks[0]?.type).toBe(5);
    expect(interaction.original?.content).toBe('ingest notes.pdf 13');
  });

  it('refuses an interaction answered after three seconds is over', async () => {
    fake = await startFakeDiscord();
    const { guildId, channelId } = fake.addGuild();
    const bot = await connect([GatewayIntentBits.Guilds]);
    const failures: unknown[] = [];
    bot.on(Events.InteractionCreate, async (interaction) => {
      if (interaction.isChatInputCommand())
        await interaction.reply('late').catch((error) => failures.push(error));
    });
    const interaction = fake.runCommand({ guildId, channelId, subcommand: 'help' });
    interaction.createdAt -= 5_000;
    await fake.waitFor(() => failures.length === 1);
    expect(String(failures[0])).toMatch(/Unknown interaction/);
  });

  it('routes guild events to the shard of (guild_id >> 22) % count and DMs to shard 0, like Discord', async () => {
    fake = await startFakeDiscord();
    const first = fake.addGuild('zero', { shard: [0, 2] });
    const second = fake.addGuild('one', { shard: [1, 2] });
    expect(shardOfGuild(first.guildId, 2)).toBe(0);
    expect(shardOfGuild(second.guildId, 2)).toBe(1);
    const intents = [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
    ];
    const zero = await connect(intents, [0, 2]);
    const one = await connect(intents, [1, 2]);
    // Each session sees the guilds of its shard only.
    expect([...zero.guilds.cache.keys()]).toEqual([first.guildId]);
    expect([...one.guilds.cache.keys()]).toEqual([second.guildId]);
    const received: Array<{ shard: number; content: string }> = [];
    for (const [shard, bot] of [zero, one].entries()) {
      bot.on(Events.MessageCreate, (message) => received.push({ shard, content: message.content }));
    }
    fake.postMessage({ channelId: second.channelId, content: 'to one', mentionBot: true });
    fake.postMessage({ channelId: first.channelId, content: 'to zero', mentionBot: true });
    fake.postDirectMessage({ content: 'a DM' });
    await fake.waitFor(() => received.length === 3);
    expect(received).toEqual([
      { shard: 1, content: `<@${fake.bot.id}> to one` },
      { shard: 0, content: `<@${fake.bot.id}> to zero` },
      { shard: 0, content: 'a DM' },
    ]);
    expect([fake.shardSessions(0), fake.shardSessions(1)]).toEqual([1, 1]);
  });

  it('closes a session that identifies as a shard outside the count with 4010 Invalid shard', async () => {
    fake = await startFakeDiscord();
    fake.addGuild();
    const bot = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: fake.apiUrl },
      shards: [0],
      shardCount: 1,
    });
    clients.push(bot);
    const closed = new Promise<number>((resolve) =>
      bot.on(Events.ShardDisconnect, (event) => resolve(event.code)),
    );
    await connect([GatewayIntentBits.Guilds], [0, 2]);
    // Another shard count than the connected sessions use is not a shard of this bot.
    await bot.login(fakeBotToken).catch(() => {});
    expect(await closed).toBe(4010);
    expect(fake.shardSessions(0)).toBe(1);
  });
});

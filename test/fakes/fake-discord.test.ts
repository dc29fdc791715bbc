import { Client, Events, GatewayIntentBits, type Message, Partials } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeDiscord, fakeBotToken, startFakeDiscord } from './fake-discord.ts';

describe('fake Discord through the real discord.js client', () => {
  let fake: FakeDiscord;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.destroy();
    client = undefined;
    await fake?.close();
  });

  async function connect(intents: GatewayIntentBits[]): Promise<Client> {
    const created = new Client({ intents, partials: [Partials.Channel], rest: { api: fake.apiUrl } });
    const ready = new Promise<void>((resolve) => created.once(Events.ClientReady, () => resolve()));
    await created.login(fakeBotToken);
    await ready;
    client = created;
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
});

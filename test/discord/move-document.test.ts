/**
 * `/ragent move name: to:` over the wire (real discord.js against the fake Discord): a document moves
 * between this channel's set and the server's, with forget's permission rule (its uploader, Manage
 * Server, or Manage Channels for a document of this channel), keeping its upload link; questions
 * then find it only where it now is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, searchThenAnswer, startDiscordHarness } from './discord-harness.ts';
import { ingestByCommand } from './ingest-by-command.ts';

const manageChannels = (1n << 4n).toString();
const manageServer = (1n << 5n).toString();

describe('Discord: /ragent move', () => {
  let harness: DiscordHarness;
  let otherChannel: string;
  beforeAll(async () => {
    harness = await startDiscordHarness();
    otherChannel = harness.discord.addChannel(harness.guildId, 'engineering');
    harness.scripts.orchestrator = searchThenAnswer('zebracount', (results) => {
      const files = [...new Set(results.match(/[\w-]+\.pdf/g) ?? [])];
      return files.length > 0 ? `Found in ${files.join(', ')}.` : 'Not in the documents.';
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const ingest = (name: string, sentence: string, channelId: string) =>
    ingestByCommand(harness, name, sentence, channelId, 'channel');

  async function ask(channelId: string): Promise<string> {
    const { threadId } = await harness.mention('What does zebracount do?', { channelId });
    const [answer] = await harness.settled(threadId);
    return answer?.content ?? '';
  }

  async function move(
    channelId: string,
    name: string,
    to: 'channel' | 'server',
    options: { user?: ReturnType<typeof randomUser>; permissions?: string } = {},
  ): Promise<string> {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId,
      subcommand: 'move',
      ...(options.user ? { user: options.user } : {}),
      ...(options.permissions ? { permissions: options.permissions } : {}),
      options: [
        { name: 'name', type: 3, value: name },
        { name: 'to', type: 3, value: to },
      ],
    });
    await harness.discord.waitFor(() => interaction.history.length >= 2, 10_000, '/ragent move');
    return interaction.original?.content ?? '';
  }

  const documentsOf = (scope: string) => harness.services.ingestion.listDocuments([scope]);

  it('moves a channel’s document to the server and into another channel, with the permissions of forget', async () => {
    const { guildId, channelId } = harness;
    await ingest('zebra-guide.pdf', 'The zebracount builtin counts stripes.', channelId);
    const [uploaded] = await documentsOf(`discord:${guildId}:${channelId}`);
    expect(uploaded?.link).toMatch(/^https:\/\//);
    expect(await ask(otherChannel)).toMatch(/^Not in the documents\./);

    // Someone else without permissions may not; Manage Channels may, for this channel's document.
    expect(await move(channelId, 'zebra-guide.pdf', 'server', { user: randomUser('mallory') })).toMatch(
      /^⚠️ Only the person who added \*\*zebra-guide\.pdf\*\* or a member with Manage Server/,
    );
    expect(
      await move(channelId, 'zebra-guide.pdf', 'server', {
        user: randomUser('moderator'),
        permissions: manageChannels,
      }),
    ).toBe(
      "📦 Moved **zebra-guide.pdf** from this channel's documents to this server's documents. Every channel of this server searches it now.",
    );
    const [moved] = await documentsOf(`discord:${guildId}`);
    expect(moved).toMatchObject({ id: uploaded?.id, uploader: uploaded?.uploader, link: uploaded?.link });
    expect(await ask(otherChannel)).toContain('zebra-guide.pdf');

    // The server's document: Manage Channels is not enough to move it; Manage Server is.
    expect(
      await move(otherChannel, 'zebra-guide.pdf', 'channel', {
        user: randomUser('moderator'),
        permissions: manageChannels,
      }),
    ).toMatch(/^⚠️ Only the person who added/);
    expect(
      await move(otherChannel, 'zebra-guide.pdf', 'channel', {
        user: randomUser('owner'),
        permissions: manageServer,
      }),
    ).toMatch(
      /^📦 Moved \*\*zebra-guide\.pdf\*\* from this server's documents to this channel's documents\./,
    );
    expect(
      (await documentsOf(`discord:${guildId}:${otherChannel}`)).map((document) => document.link),
    ).toEqual([uploaded?.link]);
    expect(await ask(channelId)).toMatch(/^Not in the documents\./);
    expect(await ask(otherChannel)).toContain('zebra-guide.pdf');
  });

  it('refuses a name already in the server’s set, changing nothing', async () => {
    const { guildId, channelId } = harness;
    await ingest('notes.pdf', 'The zebracount notes of the first channel.', channelId);
    await ingest('notes.pdf', 'The zebracount notes of the other channel.', otherChannel);
    expect(await move(otherChannel, 'notes.pdf', 'server')).toMatch(/^📦 Moved/);
    expect(await move(channelId, 'notes.pdf', 'server')).toBe(
      '⚠️ This server already has a document named **notes.pdf** (or the same file under another name). Nothing was moved: forget one of the two first, then move again.',
    );
    expect((await documentsOf(`discord:${guildId}:${channelId}`)).map((document) => document.name)).toEqual([
      'notes.pdf',
    ]);
  });
});

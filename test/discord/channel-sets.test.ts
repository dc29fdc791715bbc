/**
 * Document sets per channel on Discord, over the wire: a question in a channel (or a thread of it)
 * searches that channel's set, the server's and `shared` — never another channel's or server's; a
 * DM searches `shared` only. `/ragent ingest for:` picks the set; docs and forget work by set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { type DiscordHarness, searchThenAnswer, startDiscordHarness } from './discord-harness.ts';
import { ingestByCommand } from './ingest-by-command.ts';

const manageChannels = (1n << 4n).toString();

describe('Discord: a document set per channel', () => {
  let harness: DiscordHarness;
  let otherChannel: string;
  beforeAll(async () => {
    harness = await startDiscordHarness();
    otherChannel = harness.discord.addChannel(harness.guildId, 'engineering');
    harness.scripts.orchestrator = searchThenAnswer('zebracount moonbase', (results) => {
      const files = [...new Set(results.match(/[\w-]+\.pdf/g) ?? [])];
      return files.length > 0 ? `Found in ${files.join(', ')}.` : 'Not in the documents.';
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const ingest = (name: string, sentence: string, channelId: string, target?: 'channel' | 'server') =>
    ingestByCommand(harness, name, sentence, channelId, target);

  async function ask(channelId: string, guildId = harness.guildId): Promise<string> {
    const { threadId } = await harness.mention('What does zebracount do?', { channelId, guildId });
    const [answer] = await harness.settled(threadId);
    return answer?.content ?? '';
  }

  async function command(
    channelId: string,
    subcommand: string,
    options: { name?: string; permissions?: string } = {},
  ) {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId,
      subcommand,
      user: randomUser('moderator'),
      ...(options.permissions ? { permissions: options.permissions } : {}),
      ...(options.name ? { options: [{ name: 'name', type: 3, value: options.name }] } : {}),
    });
    await harness.discord.waitFor(() => interaction.history.length >= 2, 10_000, `/ragent ${subcommand}`);
    return interaction.original?.content ?? '';
  }

  it('answers from a channel’s documents in that channel and its threads only', async () => {
    const { guildId, channelId } = harness;
    await ingest('zebra-manual.pdf', 'The zebracount builtin counts stripes.', channelId);
    expect(
      (await harness.services.ingestion.listDocuments([`discord:${guildId}:${channelId}`])).map(
        (d) => d.name,
      ),
    ).toEqual(['zebra-manual.pdf']);

    expect(await ask(channelId)).toContain('zebra-manual.pdf');
    // A follow-up in the thread keeps its parent channel's set.
    const { threadId } = await harness.mention('What does zebracount do?', { channelId });
    await harness.settled(threadId);
    harness.discord.postMessage({ channelId: threadId, content: 'And zebracount again?', mentionBot: true });
    const [, followUp] = await harness.settled(threadId, 2);
    expect(followUp?.content).toContain('zebra-manual.pdf');

    // Another channel of the same server, another server, a DM: none sees it.
    expect(await ask(otherChannel)).toMatch(/^Not in the documents\./);
    const other = harness.discord.addGuild('beta');
    expect(await ask(other.channelId, other.guildId)).toMatch(/^Not in the documents\./);
    const dm = harness.discord.postDirectMessage({ content: 'What does zebracount do?' });
    const [dmAnswer] = await harness.settled(dm.channel_id);
    expect(dmAnswer?.content).toMatch(/^Not in the documents\./);
  });

  it('puts a PDF in the server’s set with for:server, seen from every channel of the server only', async () => {
    await ingest('moonbase.pdf', 'The moonbase zebracount policy applies to all.', otherChannel, 'server');
    expect(
      (await harness.services.ingestion.listDocuments([`discord:${harness.guildId}`])).map((d) => d.name),
    ).toEqual(['moonbase.pdf']);
    expect(await ask(harness.channelId)).toContain('moonbase.pdf');
    const third = harness.discord.addGuild('gamma');
    expect(await ask(third.channelId, third.guildId)).toMatch(/^Not in the documents\./);
  });

  it('ingests from a thread into its parent channel’s set', async () => {
    const thread = harness.discord.addThread(otherChannel, 'runbooks');
    await ingest('runbook.pdf', 'Restart the zorble service.', thread);
    const { guildId } = harness;
    expect(
      (await harness.services.ingestion.listDocuments([`discord:${guildId}:${otherChannel}`])).map(
        (d) => d.name,
      ),
    ).toEqual(['runbook.pdf']);
    expect(await harness.services.ingestion.listDocuments([`discord:${guildId}:${thread}`])).toEqual([]);
  });

  it('lists what a channel searches by set, and forgets in the channel’s set with Manage Channels', async () => {
    const inFirst = await command(harness.channelId, 'docs');
    expect(inFirst).toMatch(/\*\*This channel\*\* \(1\)\n• \*\*zebra-manual\.pdf\*\*/);
    expect(inFirst).toMatch(/\*\*This server\*\* \(1\)\n• \*\*moonbase\.pdf\*\*/);
    expect(inFirst).not.toContain('runbook.pdf');
    const inOther = await command(otherChannel, 'docs');
    expect(inOther).not.toContain('zebra-manual.pdf');
    expect(inOther).toContain('runbook.pdf');

    // Another channel cannot reach it; Manage Channels removes a channel's document, not the server's.
    expect(
      await command(otherChannel, 'forget', { name: 'zebra-manual.pdf', permissions: manageChannels }),
    ).toMatch(/^⚠️ No document/);
    expect(
      await command(harness.channelId, 'forget', { name: 'moonbase.pdf', permissions: manageChannels }),
    ).toMatch(/Only the person who added/);
    expect(
      await command(harness.channelId, 'forget', { name: 'zebra-manual.pdf', permissions: manageChannels }),
    ).toMatch(/^🗑️ Removed \*\*zebra-manual\.pdf\*\* .* from this channel's documents/);
  });

  it('lets a channel manager link a channel to another channel’s set with /ragent use, within the server only', async () => {
    const { discord, guildId } = harness;
    const oncall = discord.addChannel(guildId, 'oncall');
    const oncallEu = discord.addChannel(guildId, 'oncall-eu');
    await ingest('pager-runbook.pdf', 'The zebracount pager rotation changes on monday.', oncall);
    expect(await ask(oncallEu)).not.toContain('pager-runbook.pdf');

    const use = (channelId: string, target: string, subcommand = 'use', permissions = manageChannels) => {
      const interaction = discord.runCommand({
        guildId,
        channelId,
        subcommand,
        permissions,
        options: [{ name: 'channel', type: 7, value: target }],
      });
      return discord
        .waitFor(() => interaction.history.length >= 2, 10_000, `/ragent ${subcommand}`)
        .then(() => interaction.original?.content ?? '');
    };
    expect(await use(oncallEu, oncall, 'use', '3072')).toMatch(/^⚠️ Only a member with Manage Channels/);
    expect(await use(oncallEu, oncall)).toMatch(/now also searches the documents of <#\d+>/);
    expect(await harness.services.coordination.linkedChannels(`discord:${guildId}:${oncallEu}`)).toEqual([
      `discord:${guildId}:${oncall}`,
    ]);
    expect(await ask(oncallEu)).toContain('pager-runbook.pdf');
    expect(await command(oncallEu, 'docs')).toMatch(
      /\*\*Linked channels\*\* \(1\)\n• \*\*pager-runbook\.pdf\*\*/,
    );
    // One way: the linked channel does not search the other's set; the rest of the server neither.
    expect(await ask(otherChannel)).not.toContain('pager-runbook.pdf');

    // A channel of another server is refused.
    const elsewhere = discord.addGuild('delta');
    expect(await use(oncallEu, elsewhere.channelId)).toMatch(
      /^⚠️ A channel can only use the documents of another channel in this server/,
    );

    expect(await use(oncallEu, oncall, 'unuse')).toMatch(/no longer searches/);
    expect(await ask(oncallEu)).not.toContain('pager-runbook.pdf');
  });
});

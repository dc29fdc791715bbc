import { afterEach, describe, expect, it } from 'vitest';
import { randomUser } from '../fakes/fake-discord.ts';
import { docx, makeDocx } from '../support/make-office.ts';
import { makePdf } from '../support/make-pdf.ts';
import { type DiscordHarness, searchThenAnswer, startDiscordHarness } from './discord-harness.ts';

const manageServer = (1n << 5n).toString();

let manual: Promise<Uint8Array> | undefined;
/** Made once, so that ingesting it twice sends the very same bytes. */
function zebraManual(): Promise<Uint8Array> {
  manual ??= makePdf([
    'Zebra Shell Manual\nThe zebracount builtin counts the stripes of a zebra.\nRun zebracount --all to count every stripe.',
    'Announcements\n@everyone the zebracount builtin is deprecated, tell @here and <@&123456789012345678>.',
  ]);
  return manual;
}

describe('Discord: /ragent ingest and the documents of a server', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  async function ingest(target: DiscordHarness, guildId = target.guildId, channelId = target.channelId) {
    const file = target.discord.addAttachment('zebra-manual.pdf', await zebraManual());
    const interaction = target.discord.runCommand({
      guildId,
      channelId,
      subcommand: 'ingest',
      attachments: [file],
    });
    await target.discord.waitFor(
      () => interaction.original?.content.startsWith('✅') || interaction.original?.content.startsWith('⚠️'),
      15_000,
      'the ingest result',
    );
    return interaction;
  }

  it('defers at once, downloads the PDF, ingests it into the channel and reports pages, chunks and time', async () => {
    harness = await startDiscordHarness();
    const interaction = await ingest(harness);
    // Deferred before any other call: the download comes after the defer.
    expect(interaction.callbacks[0]?.type).toBe(5);
    const paths = harness.discord.requests.map((request) => request.path);
    const deferredAt = paths.findIndex((path) => path.includes(`/interactions/${interaction.id}/`));
    expect(deferredAt).toBeGreaterThanOrEqual(0);
    expect(deferredAt).toBeLessThan(paths.findIndex((path) => path.startsWith('/attachments/')));
    expect(interaction.history.some((text) => text.startsWith('⏳ **zebra-manual.pdf**'))).toBe(true);
    expect(interaction.original?.content).toMatch(
      /^✅ \*\*zebra-manual\.pdf\*\* — 2 pages, \d+ chunks?, \d+\.\d s/,
    );
    const download = harness.discord.requests.find((request) => request.path.startsWith('/attachments/'));
    expect(download?.authorization).toBeUndefined();
    // By default (RAGENT_INGEST_DEFAULT_SET=channel) into the channel's own set.
    const documents = await harness.services.ingestion.listDocuments([
      `discord:${harness.guildId}:${harness.channelId}`,
    ]);
    expect(documents).toEqual([expect.objectContaining({ name: 'zebra-manual.pdf', pages: 2 })]);

    // The same file again changes nothing.
    const again = await ingest(harness);
    expect(again.original?.content).toMatch(/already ingested, unchanged/);
  });

  it('answers from it with the sources in an embed, in that server only', async () => {
    harness = await startDiscordHarness();
    const ingested = await ingest(harness);
    harness.scripts.orchestrator = searchThenAnswer('zebracount stripes', (results) =>
      results.includes('zebracount')
        ? 'zebracount counts stripes.\n\nSources: zebra-manual.pdf (p. 1)'
        : 'Not in the documents.',
    );
    const { threadId } = await harness.mention('What does zebracount do?');
    const [answer] = await harness.settled(threadId);
    expect(answer?.content).toContain('zebracount counts stripes.');
    expect(answer?.content).not.toContain('Sources:');
    const embed = answer?.embeds[0] as { title: string; description: string };
    expect(embed.title).toBe('Sources');
    // The source links to the ingest command's reply (not the attachment's expiring CDN address).
    const replyLink = `https://discord.com/channels/${harness.guildId}/${harness.channelId}/${ingested.original?.id}`;
    expect(embed.description).toContain(`📄 **[zebra-manual.pdf](${replyLink})** — `);
    expect(embed.description).toMatch(/zebra-manual\.pdf\]\([^)]+\)\*\* — (p\. 1|pp\. 1–2)/);

    // Another server on the same bot never sees it: not in search, not in /ragent docs.
    const other = harness.discord.addGuild('beta');
    const otherThread = await harness.mention('What does zebracount do?', { channelId: other.channelId });
    const [otherAnswer] = await harness.settled(otherThread.threadId);
    expect(otherAnswer?.content).toContain('Not in the documents.');
    expect(otherAnswer?.embeds).toEqual([]);
    const docs = harness.discord.runCommand({
      guildId: other.guildId,
      channelId: other.channelId,
      subcommand: 'docs',
    });
    await harness.discord.waitFor(() => docs.history.length >= 2);
    expect(docs.original?.content).toMatch(/^No documents yet/);
    const forget = harness.discord.runCommand({
      guildId: other.guildId,
      channelId: other.channelId,
      subcommand: 'forget',
      permissions: manageServer,
      options: [{ name: 'name', type: 3, value: 'zebra-manual.pdf' }],
    });
    await harness.discord.waitFor(() => forget.history.length >= 2);
    // Deferred first (reading the index may take longer than Discord's 3 s), privately.
    expect(forget.callbacks[0]).toMatchObject({ type: 5, data: { flags: 64 } });
    expect(forget.original?.content).toMatch(/^⚠️ /);
    expect(
      await harness.services.ingestion.listDocuments([`discord:${harness.guildId}:${harness.channelId}`]),
    ).toHaveLength(1);

    // Nor does a DM, which searches shared documents only.
    const dm = harness.discord.postDirectMessage({ content: 'What does zebracount do?' });
    const [dmAnswer] = await harness.settled(dm.channel_id);
    expect(dmAnswer?.content).toContain('Not in the documents.');
  });

  it('never pings when a document says @everyone', async () => {
    harness = await startDiscordHarness();
    await ingest(harness);
    harness.scripts.orchestrator = searchThenAnswer(
      'announcements deprecated',
      (results) => `The document says:\n\n> ${/@everyone[^\n]*/.exec(results)?.[0] ?? 'nothing'}`,
    );
    const { threadId } = await harness.mention('Any announcements?');
    const [answer] = await harness.settled(threadId);
    expect(answer?.content).toContain('@everyone the zebracount builtin is deprecated');
    const bodies = harness.discord.sentBodies();
    expect(bodies.length).toBeGreaterThanOrEqual(4);
    for (const { body } of bodies) expect(body.allowed_mentions).toMatchObject({ parse: [] });
    for (const { body } of bodies) expect(body.allowed_mentions).not.toHaveProperty('roles');
  });

  it('lists documents, and lets only the uploader or a server manager forget one', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    await ingest(harness);
    const docs = discord.runCommand({ guildId, channelId, subcommand: 'docs' });
    await discord.waitFor(() => docs.history.length >= 2);
    expect(docs.original?.content).toMatch(
      /\*\*This channel\*\* \(1\)\n• \*\*zebra-manual\.pdf\*\* — 2 pages, added by <@\d+>/,
    );

    const name = { name: 'name', type: 3, value: 'zebra-manual.pdf' };
    const stranger = discord.runCommand({
      guildId,
      channelId,
      subcommand: 'forget',
      user: randomUser('mallory'),
      options: [name],
    });
    await discord.waitFor(() => stranger.history.length >= 2);
    expect(stranger.callbacks[0]?.type).toBe(5);
    expect(stranger.original?.content).toMatch(/Only the person who added/);
    expect(stranger.original?.flags).toBe(64);

    const manager = discord.runCommand({
      guildId,
      channelId,
      subcommand: 'forget',
      user: randomUser('admin'),
      permissions: manageServer,
      options: [name],
    });
    await discord.waitFor(() => manager.original?.content.startsWith('🗑️'));
    expect(manager.original?.content).toMatch(/from this channel's documents/);
    expect(await harness.services.ingestion.listDocuments([`discord:${guildId}:${channelId}`])).toEqual([]);

    const missing = discord.runCommand({ guildId, channelId, subcommand: 'forget', options: [name] });
    await discord.waitFor(() => missing.history.length >= 2);
    expect(missing.original?.content).toMatch(/^⚠️ /);
  });

  it('adds a CSV and a DOCX attached to the command, searchable in that server only', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    const csv = discord.addAttachment(
      'cost-centres.csv',
      new TextEncoder().encode(
        'Cost centre,Owner,Amount\n4410,Quokka facilities,12300\n4420,Wombat travel,800\n',
      ),
      'text/csv',
    );
    const first = discord.runCommand({ guildId, channelId, subcommand: 'ingest', attachments: [csv] });
    await discord.waitFor(() => /^(✅|⚠️)/.test(first.original?.content ?? '') || undefined, 15_000);
    expect(first.original?.content).toMatch(/^✅ \*\*cost-centres\.csv\*\*/);
    // A Word file, served under a type the uploader's client made up: the bytes tell what it is.
    const word = discord.addAttachment(
      'handbook.docx',
      makeDocx(
        docx.heading(1, 'Parking') + docx.paragraph('Visitors park their zeppelins on the roof deck.'),
      ),
      'application/octet-stream',
    );
    const second = discord.runCommand({ guildId, channelId, subcommand: 'ingest', attachments: [word] });
    await discord.waitFor(() => /^(✅|⚠️)/.test(second.original?.content ?? '') || undefined, 15_000);
    expect(second.original?.content).toMatch(/^✅ \*\*handbook\.docx\*\*/);
    const documents = await harness.services.ingestion.listDocuments([`discord:${guildId}:${channelId}`]);
    expect(documents.map((document) => document.name).sort()).toEqual(['cost-centres.csv', 'handbook.docx']);

    harness.scripts.orchestrator = searchThenAnswer('Quokka facilities cost centre', (results) =>
      results.includes('Quokka facilities')
        ? 'Cost centre 4410 belongs to Quokka facilities.'
        : 'Not in the documents.',
    );
    const { threadId } = await harness.mention('Which cost centre do the quokkas use?');
    const [answer] = await harness.settled(threadId);
    expect(answer?.content).toContain('Cost centre 4410 belongs to Quokka facilities.');
    const embed = answer?.embeds[0] as { description: string };
    expect(embed.description).toMatch(/cost-centres\.csv\]\([^)]+\)\*\* — rows? \d/);

    harness.scripts.orchestrator = searchThenAnswer('zeppelins parking', (results) =>
      results.includes('zeppelins') ? 'Zeppelins park on the roof deck.' : 'Not in the documents.',
    );
    const parking = await harness.mention('Where do visitors leave their zeppelins?');
    const [parkingAnswer] = await harness.settled(parking.threadId);
    expect(parkingAnswer?.content).toContain('Zeppelins park on the roof deck.');

    // Another server on the same bot finds neither.
    const other = harness.discord.addGuild('beta');
    const otherThread = await harness.mention('Where do visitors leave their zeppelins?', {
      channelId: other.channelId,
    });
    const [otherAnswer] = await harness.settled(otherThread.threadId);
    expect(otherAnswer?.content).toContain('Not in the documents.');
  });

  it('refuses a file it cannot read with the ingest’s own clear message', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    const binary = discord.addAttachment(
      'firmware.bin',
      Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0xff]),
    );
    const interaction = discord.runCommand({
      guildId,
      channelId,
      subcommand: 'ingest',
      attachments: [binary],
    });
    await discord.waitFor(() => interaction.original?.content.startsWith('⚠️'));
    expect(interaction.original?.content).toMatch(
      /firmware\.bin is not a file type ragent reads\. Supported: \.pdf, /,
    );

    const disguised = discord.addAttachment('report.pdf', new TextEncoder().encode('not really a pdf'));
    const second = discord.runCommand({ guildId, channelId, subcommand: 'ingest', attachments: [disguised] });
    await discord.waitFor(() => second.original?.content.startsWith('⚠️'));
    expect(second.original?.content).toMatch(/report\.pdf is named \.pdf but is not a PDF/);
    expect(await harness.services.ingestion.listDocuments([`discord:${guildId}:${channelId}`])).toEqual([]);
  });
});

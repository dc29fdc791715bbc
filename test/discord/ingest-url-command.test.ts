/**
 * `/ragent ingest url:<address>` in Discord over the wire: fetched under the chat's address guard
 * (loopback refused unless RAGENT_FETCH_ALLOW lists it — here 127.0.0.1 only, so `127.0.0.2` written
 * in hex is refused), ingested into the channel's set named by its address; with neither a file nor a
 * web address, the person is told what to give.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeWebsite, sitePage, startFakeWebsite } from '../fakes/fake-website.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

describe('Discord: /ragent ingest url:', () => {
  let harness: DiscordHarness;
  let site: FakeWebsite;
  beforeAll(async () => {
    site = await startFakeWebsite();
    harness = await startDiscordHarness({ environment: { RAGENT_FETCH_ALLOW: '127.0.0.1' } });
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    await site?.close();
  });

  async function ingestUrl(url: string) {
    const interaction = harness.discord.runCommand({
      guildId: harness.guildId,
      channelId: harness.channelId,
      subcommand: 'ingest',
      options: [{ name: 'url', type: 3, value: url }],
    });
    await harness.discord.waitFor(
      () => /^(✅|⚠️|❌)/u.test(interaction.original?.content ?? ''),
      15_000,
      'the ingest result',
    );
    return interaction.original?.content ?? '';
  }

  it('refuses a private address and ingests an allowed page into the channel', async () => {
    const before = site.requests.length;
    const refused = await ingestUrl(`http://0x7f000002:${site.port}/faq`);
    // Discord Markdown escapes the underscores; the reader sees the variable's name.
    expect(refused.replace(/\\(.)/g, '$1')).toContain('RAGENT_FETCH_ALLOW');
    expect(site.requests.length).toBe(before);

    site.page(
      '/faq',
      sitePage({
        title: 'FAQ',
        sections: [{ heading: 'Keys', text: 'Lost keys are replaced by reception.' }],
      }),
    );
    const url = `http://127.0.0.1:${site.port}/faq`;
    expect(await ingestUrl(url)).toMatch(/^✅/u);
    const documents = await harness.services.ingestion.listDocuments([
      `discord:${harness.guildId}:${harness.channelId}`,
    ]);
    expect(documents).toEqual([expect.objectContaining({ name: url, link: url })]);
  });

  it('tells the person what to give when there is neither a file nor a web address', async () => {
    const replyTo = async (options: Array<{ name: string; type: number; value: string }>) => {
      const interaction = harness.discord.runCommand({
        guildId: harness.guildId,
        channelId: harness.channelId,
        subcommand: 'ingest',
        options,
      });
      // The deferred reply is empty until the command's reply fills it in.
      return harness.discord.waitFor(() => interaction.original?.content || undefined, 15_000, 'the reply');
    };
    expect(await replyTo([])).toBe(
      'Give a file to add, or the address of a web page: `/ragent ingest file: for:` (or `url:` for a web page).',
    );
    expect(await replyTo([{ name: 'url', type: 3, value: 'the wiki' }])).toBe(
      'the wiki is not a web address: give one starting with http:// or https://.',
    );
  });
});

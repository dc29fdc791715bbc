/**
 * Never a silent thread after a crash: `ragent start` takes a mention, starts the thread, shows its
 * status and is killed with SIGKILL while the model has not answered (see bot-lifecycle). Discord
 * will not redeliver the message, so the next start must tell that thread, once, to ask again (in the
 * platform contract, test/platforms/contract/). Likewise `/ragent ingest` killed mid-embedding: its reply must not say
 * "Embedding…" forever.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const interruptedIngest =
  /^🔄 ragent restarted while ingesting \*\*loops\.pdf\*\*; nothing was added — run `\/ragent ingest` again\.$/;

async function crashMidIngest(h: DiscordHarness) {
  const bytes = await makePdf(['Bash loops\nA while loop repeats its body while the test command succeeds.']);
  const ingest = () =>
    h.discord.runCommand({
      guildId: h.guildId,
      channelId: h.channelId,
      subcommand: 'ingest',
      attachments: [h.discord.addAttachment('loops.pdf', bytes)],
    });
  const interaction = await h.crashMidIngest(async () => ingest());
  // Cut short mid-embedding: the deferred reply ("thinking", or a progress line), stuck.
  expect(interaction.original?.content ?? '').not.toMatch(/^(✅|⚠️)/);
  return { interaction, ingest };
}

describe('Discord after a crash', { timeout: 90_000 }, () => {
  let harness: DiscordHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('turns the reply of an ingest a crash cut short into a notice, once, and ingests again', async () => {
    harness = await startDiscordHarness();
    const h = harness;
    const { interaction, ingest } = await crashMidIngest(h);
    const notices = () => interaction.history.filter((content) => interruptedIngest.test(content));

    await h.resume();
    expect(interaction.original?.content).toMatch(interruptedIngest);
    expect(notices()).toHaveLength(1);
    expect(interaction.original?.allowed_mentions).toEqual({ parse: [], replied_user: false });
    const scope = [`discord:${h.guildId}:${h.channelId}`];
    expect(await h.services.ingestion.listDocuments(scope)).toEqual([]);

    await h.restart();
    expect(notices()).toHaveLength(1);

    const again = ingest();
    const result = await h.discord.waitFor(
      () => /^(✅|⚠️)/.test(again.original?.content ?? '') && again.original?.content,
      15_000,
      'the ingest result',
    );
    expect(result).toMatch(/^✅ \*\*loops\.pdf\*\* — 1 page/);
    expect((await h.services.ingestion.listDocuments(scope)).map((document) => document.name)).toEqual([
      'loops.pdf',
    ]);
    expect(notices()).toHaveLength(1);
  });

  it('posts the notice in the channel once the ingest reply can no longer be edited', async () => {
    harness = await startDiscordHarness();
    const h = harness;
    const { interaction } = await crashMidIngest(h);
    // The bot stayed down for 20 minutes: the interaction token (15 minutes) has expired.
    const database = new Database(path.join(h.services.dataDir, 'bot.sqlite'));
    database.prepare('UPDATE turns_in_flight SET started_at = started_at - ?').run(20 * 60 * 1000);
    database.close();
    const stuck = interaction.original?.content;

    await h.resume();
    expect(interaction.original?.content).toBe(stuck);
    const posted = h.discord
      .channelMessages(h.channelId)
      .filter((message) => message.author.id === h.discord.bot.id);
    expect(posted.map((message) => message.content)).toEqual([expect.stringMatching(interruptedIngest)]);
    expect(posted[0]?.allowed_mentions).toEqual({ parse: [], replied_user: false });
  });
});

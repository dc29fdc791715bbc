/**
 * Discord: files attached to a message that mentions ragent with "ingest" are added to the channel's
 * set (or the server's, "for server") through the same runner job as Slack's file shares — progress,
 * result, the document linked to the message — and a file it cannot read gets its clear refusal while
 * the other files of the message are still added.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { threadFilesScope } from '../../src/core/ids.ts';
import { makePdf } from '../support/make-pdf.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const interruptedIngest = /^🔄 ragent restarted while ingesting \*\*loops\.pdf\*\*; nothing was added/;

describe('Discord: "@ragent ingest" with attachments', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  async function mentionWithFiles(text: string, files: Array<{ name: string; bytes: Uint8Array }>) {
    const attachments = files.map((file) => harness.discord.addAttachment(file.name, file.bytes));
    const message = harness.discord.postMessage({
      channelId: harness.channelId,
      content: text,
      mentionBot: true,
      attachments,
    });
    const result = await harness.discord.waitFor(
      () =>
        harness.discord
          .channelMessages(harness.channelId)
          .find(
            (each) =>
              each.author.id === harness.discord.bot.id &&
              /^(✅|⚠️|❌)/.test(each.content) &&
              !each.content.includes('⏳') &&
              each !== message,
          ),
      15_000,
      'the ingest result',
    );
    return { message, result };
  }

  it('adds them to the channel’s set, linked to the message, with the progress and result in the channel', async () => {
    harness = await startDiscordHarness();
    const pdf = await makePdf([
      ['Zebra Shell Manual', 'The zebracount builtin counts the stripes of a zebra.'],
    ]);
    const { message, result } = await mentionWithFiles('ingest this manual', [
      { name: 'zebra-manual.pdf', bytes: pdf },
      { name: 'firmware.bin', bytes: new Uint8Array([0, 1, 2, 3, 0xff]) },
    ]);
    expect(result.content).toContain('zebra-manual.pdf');
    expect(result.content).toMatch(/firmware\.bin.*not a file type ragent reads/s);
    const documents = await harness.services.ingestion.listDocuments([
      `discord:${harness.guildId}:${harness.channelId}`,
    ]);
    expect(documents).toEqual([
      expect.objectContaining({
        name: 'zebra-manual.pdf',
        link: `https://discord.com/channels/${harness.guildId}/${harness.channelId}/${message.id}`,
      }),
    ]);
    // An ingest, not a question: no thread was started and the model was never asked.
    expect(harness.discord.threads().some((thread) => thread.id === message.id)).toBe(false);
    expect(harness.requestsOf('rewrite')).toEqual([]);
    // The attachment came from the fake CDN, without the bot's token.
    const download = harness.discord.requests.find((request) => request.path.startsWith('/attachments/'));
    expect(download?.authorization).toBeUndefined();
  });

  it('adds them to the server’s set when the message says "for server"', async () => {
    harness = await startDiscordHarness();
    const pdf = await makePdf([
      ['Zebra Shell Manual', 'The zebracount builtin counts the stripes of a zebra.'],
    ]);
    await mentionWithFiles('ingest for server', [{ name: 'zebra-manual.pdf', bytes: pdf }]);
    expect(await harness.services.ingestion.listDocuments([`discord:${harness.guildId}`])).toEqual([
      expect.objectContaining({ name: 'zebra-manual.pdf' }),
    ]);
    expect(
      await harness.services.ingestion.listDocuments([`discord:${harness.guildId}:${harness.channelId}`]),
    ).toEqual([]);
  });

  it('reads a file attached to a question for its thread only: searched there, never listed by /ragent docs', async () => {
    harness = await startDiscordHarness();
    const pdf = await makePdf([
      ['Zebra Shell Manual', 'The zebracount builtin counts the stripes of a zebra.'],
    ]);
    const attachment = harness.discord.addAttachment('zebra-manual.pdf', pdf);
    const message = harness.discord.postMessage({
      channelId: harness.channelId,
      content: 'What does zebracount do?',
      mentionBot: true,
      attachments: [attachment],
    });
    const thread = await harness.discord.waitFor(
      () => harness.discord.threads().find((each) => each.id === message.id),
      10_000,
      'the thread started from the mention',
    );
    await harness.settled(thread.id);
    // Read into the thread's own files …
    const threadFiles = threadFilesScope(`discord:${harness.guildId}:${thread.id}`);
    expect(await harness.services.ingestion.listDocuments([threadFiles])).toEqual([
      expect.objectContaining({ name: 'zebra-manual.pdf' }),
    ]);
    // … which no set of the channel or server holds, in the channel or in the thread itself.
    for (const channelId of [harness.channelId, thread.id]) {
      const docs = harness.discord.runCommand({ guildId: harness.guildId, channelId, subcommand: 'docs' });
      await harness.discord.waitFor(() => docs.history.length >= 2);
      expect(docs.original?.content).toMatch(/^No documents yet/);
    }
    expect(await harness.services.ingestion.listPlaceDocuments(`discord:${harness.guildId}`)).toEqual([]);
  });

  it('turns its progress message into a notice after a crash mid-ingest, nothing added', {
    timeout: 90_000,
  }, async () => {
    harness = await startDiscordHarness();
    const h = harness;
    const bytes = await makePdf([
      ['Bash loops', 'A while loop repeats its body while the test command succeeds.'],
    ]);
    const message = await h.crashMidIngest(async () =>
      h.discord.postMessage({
        channelId: h.channelId,
        content: 'ingest this',
        mentionBot: true,
        attachments: [h.discord.addAttachment('loops.pdf', bytes)],
      }),
    );
    const progress = () =>
      h.discord
        .channelMessages(h.channelId)
        .filter((each) => each.author.id === h.discord.bot.id && each.id !== message.id);
    // Cut short mid-embedding: one progress message, stuck.
    expect(progress().map((each) => each.content)).toEqual([expect.not.stringMatching(/^(✅|⚠️)/)]);

    await h.resume();
    // The progress message itself now says what happened; nothing else was posted, nothing was added.
    expect(progress().map((each) => each.content)).toEqual([expect.stringMatching(interruptedIngest)]);
    expect(await h.services.ingestion.listDocuments([`discord:${h.guildId}:${h.channelId}`])).toEqual([]);
  });
});

import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { reportText } from '../../src/commands/report-command.ts';
import type { PastTurn } from '../../src/core/turn-history.ts';
import { summarizeForChat } from '../../src/operators/place-report.ts';
import { buildReport } from '../../src/operators/report.ts';
import { reportCommand } from '../../src/platforms/discord/command-definitions.ts';
import { discordMarkup } from '../../src/platforms/discord/discord-markup.ts';
import { makePdf } from '../support/make-pdf.ts';
import { type DiscordHarness, startDiscordHarness } from './discord-harness.ts';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

function turn(id: string, guildId: string, channelId: string, overrides: Partial<PastTurn>): PastTurn {
  return {
    id,
    platform: 'discord',
    scopes: [`discord:${guildId}:${channelId}`, `discord:${guildId}`, 'shared'],
    threadId: `discord:${guildId}:${id}`,
    user: 'someone',
    question: `question ${id}`,
    startedAt: hoursAgo(1),
    durationMs: 1_000,
    outcome: 'answered',
    citedDocuments: [],
    link: `https://discord.com/channels/${guildId}/${id}`,
    ...overrides,
  };
}

describe('Discord: /ragent-report', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('is registered as its own command, for Manage Server by default', () => {
    expect(reportCommand.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
  });

  it("shows this server's numbers, misses with jump links and uncited documents, privately — never another server's", async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId, services } = harness;
    const other = discord.addGuild('beta');
    const bytes = await makePdf(['Bash loops\nA while loop repeats its body.']);
    await services.ingestion.ingest({
      name: 'loops.pdf',
      bytes,
      scope: `discord:${guildId}:${channelId}`,
      uploader: 'discord:1',
    });
    await services.ingestion.ingest({
      name: 'beta-secrets.pdf',
      bytes: await makePdf(['Beta only\nNot for alpha.']),
      scope: `discord:${other.guildId}`,
      uploader: 'discord:2',
    });
    const turns = [
      turn('101', guildId, channelId, { outcome: 'answered' }),
      turn('102', guildId, channelId, { outcome: 'not-found', question: 'how do I deploy on Fridays?' }),
      turn('103', guildId, channelId, { outcome: 'failed', errorCode: 'MODEL_UNREACHABLE' }),
      // Older than the default 7 days: counted only in a longer window.
      turn('104', guildId, channelId, {
        outcome: 'not-found',
        question: 'an old miss',
        startedAt: hoursAgo(24 * 10),
      }),
      turn('201', other.guildId, other.channelId, {
        outcome: 'not-found',
        question: 'beta private question',
      }),
      turn('202', other.guildId, other.channelId, { outcome: 'answered' }),
    ];
    for (const each of turns) await services.turnHistory.recordTurn(each);

    const report = discord.runCommand({ guildId, channelId, command: 'ragent-report', permissions: '32' });
    await discord.waitFor(() => report.history.length >= 2, 10_000, '/ragent-report');
    expect(report.callbacks[0]).toMatchObject({ type: 5, data: { flags: 64 } });
    const text = report.original?.content ?? '';
    expect(text).toContain('last 7 days');
    expect(text).toContain('3 questions · 1 answered · 1 not found · 0 clarified · 1 failed');
    expect(text).toContain(
      `“how do I deploy on Fridays?” (not found) — [thread](<https://discord.com/channels/${guildId}/102>)`,
    );
    expect(text).toContain('loops.pdf');
    expect(text).not.toContain('an old miss');
    // The other server's turns: neither their words nor their threads' links (ids are random snowflakes).
    expect(text).not.toMatch(/beta|\/20[12]>/);

    const month = discord.runCommand({
      guildId,
      channelId,
      command: 'ragent-report',
      options: [{ name: 'days', type: 4, value: 30 }],
    });
    await discord.waitFor(() => month.history.length >= 2, 10_000, '/ragent-report');
    expect(month.original?.content).toContain('last 30 days');
    expect(month.original?.content).toContain('4 questions');
    expect(month.original?.content).toContain('an old miss');

    // The other server sees its own, and none of alpha's.
    const beta = discord.runCommand({
      guildId: other.guildId,
      channelId: other.channelId,
      command: 'ragent-report',
    });
    await discord.waitFor(() => beta.history.length >= 2, 10_000, '/ragent-report');
    expect(beta.original?.content).toContain('2 questions');
    expect(beta.original?.content).toContain('beta private question');
    expect(beta.original?.content).toContain('beta-secrets.pdf');
    expect(beta.original?.content).not.toMatch(/Fridays|loops\.pdf/);
  });

  it("fits Discord's 2,000 characters however long the lists are, saying how many it left out", () => {
    const long = 'why '.repeat(300);
    const turns = Array.from({ length: 60 }, (_, index) =>
      turn(String(index), 'g', 'c', { outcome: 'not-found', question: `${index} ${long}` }),
    );
    const documents = Array.from({ length: 80 }, (_, index) => ({
      id: `d${index}`,
      name: `document-with-a-rather-long-name-${index}.pdf`,
      scope: 'discord:g',
      pages: 1,
      bytes: 1,
      parents: 1,
      children: 1,
      uploader: 'u',
      ingestedAt: hoursAgo(1),
      embeddingModel: null,
    }));
    const stale = {
      id: 'v1',
      scope: 'discord:g',
      question: 'q',
      answer: 'a',
      sources: [{ file: 'gone.pdf', pages: [1, 1] as [number, number], documentId: 'gone' }],
      verifiedBy: 'discord:1',
      verifiedAt: hoursAgo(48),
    };
    const text = reportText(
      summarizeForChat(buildReport(turns, [], documents, [stale])),
      7,
      discordMarkup,
      2_000,
    );
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(text).toMatch(/…and \d+ more: run `ragent report` for all\./);
    expect(text).toContain('document-with-a-rather-long-name-0.pdf');
    expect(text).toContain('60 questions');
    expect(text).toContain('1 verified answer cites a document since forgotten or changed');
  });
});

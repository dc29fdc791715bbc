/**
 * Over the wire: when the model cites by number, every [n] of the posted answer matches a numbered
 * line of the sources embed (in order, linked to the ingest reply).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import { type DiscordHarness, startDiscordHarness, toolResults } from './discord-harness.ts';

describe('Discord: numbered sources', () => {
  let harness: DiscordHarness;
  afterEach(async () => {
    await harness?.close();
  });

  it('numbers the embed the way the answer cites', async () => {
    harness = await startDiscordHarness();
    const { discord, guildId, channelId } = harness;
    const file = discord.addAttachment(
      'zebra-care.pdf',
      await makePdf([
        'Stripes\nThe zebracount builtin counts the stripes of a zebra.',
        'Manes\nThe zebrabrush builtin brushes the mane of a zebra every morning.',
      ]),
    );
    const ingest = discord.runCommand({ guildId, channelId, subcommand: 'ingest', attachments: [file] });
    await discord.waitFor(() => ingest.original?.content.startsWith('✅'), 15_000, 'the ingest');

    harness.scripts.orchestrator = (request) => {
      const results = toolResults(request);
      if (!results) {
        return { toolCalls: [{ name: 'search_child_chunks', arguments: { query: 'zebra', limit: 5 } }] };
      }
      // Cite what was shown, in reverse order, so the renumbering is visible too.
      const shown = [...results.matchAll(/Cite as: \[(\d+)\]/g)].map((match) => match[1]).reverse();
      return { content: `Zebras are looked after with builtins ${shown.map((n) => `[${n}]`).join('')}.` };
    };
    const { threadId } = await harness.mention('How are zebras looked after?');
    const [answer] = await harness.settled(threadId);
    const cited = [...new Set([...(answer?.content ?? '').matchAll(/\[(\d+)\]/g)].map((match) => match[1]))];
    expect(cited.length).toBeGreaterThan(0);
    expect(cited).toEqual(cited.map((_, index) => String(index + 1)));
    const lines = ((answer?.embeds[0] as { description: string } | undefined)?.description ?? '').split('\n');
    const replyLink = `https://discord.com/channels/${guildId}/${channelId}/${ingest.original?.id}`;
    expect(lines).toHaveLength(cited.length);
    for (const [index, line] of lines.entries()) {
      expect(line.startsWith(`\\[${index + 1}\\] 📄 **[zebra-care.pdf](${replyLink})** — p`)).toBe(true);
    }
  });
});

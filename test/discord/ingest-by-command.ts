/** `/ragent ingest` of a one-page PDF in `channelId` (for `target`, else the default set), waited for until it is ingested. */
import { expect } from 'vitest';
import { makePdf } from '../support/make-pdf.ts';
import type { DiscordHarness } from './discord-harness.ts';

export async function ingestByCommand(
  harness: DiscordHarness,
  name: string,
  sentence: string,
  channelId: string,
  target?: 'channel' | 'server',
): Promise<void> {
  const file = harness.discord.addAttachment(name, await makePdf([[name, sentence]]));
  const interaction = harness.discord.runCommand({
    guildId: harness.guildId,
    channelId,
    subcommand: 'ingest',
    attachments: [file],
    ...(target ? { options: [{ name: 'for', type: 3, value: target }] } : {}),
  });
  await harness.discord.waitFor(
    () => interaction.original?.content.startsWith('✅') || interaction.original?.content.startsWith('⚠️'),
    15_000,
    'the ingest result',
  );
  expect(interaction.original?.content).toMatch(/^✅/);
}

/**
 * A file's name is shown as it is on every platform: a name that looks like Markdown or a link
 * (`[Verify](https://evil.example) notice.pdf`) never becomes a live link — in Slack's mrkdwn and
 * blocks, in Discord's Markdown and in its embeds.
 */
import { describe, expect, it } from 'vitest';
import { removedReplyText } from '../../src/commands/forget-command.ts';
import { documentListText } from '../../src/commands/list-documents-command.ts';
import type { IngestFileState } from '../../src/core/chat-platform.ts';
import type { DocumentRecord } from '../../src/core/types.ts';
import type { RagentError } from '../../src/errors.ts';
import { detectFileKind } from '../../src/ingest/detect-file-kind.ts';
import { discordMarkup } from '../../src/platforms/discord/discord-markup.ts';
import { sourcesEmbed } from '../../src/platforms/discord/render-answer.ts';
import { renderReply as renderDiscordReply } from '../../src/platforms/discord/render-reply.ts';
import { formatSources } from '../../src/platforms/slack/render-answer.ts';
import { renderReply as renderSlackReply, renderStatus } from '../../src/platforms/slack/render-reply.ts';
import type { DocumentSet } from '../../src/turns/messages-en.ts';

const evilName = '[Verify](https://evil.example) notice.pdf';

/** A Markdown masked link whose brackets are not escaped: Discord would render it live. */
const liveMaskedLink = /(?<!\\)\[[^\]\n]*(?<!\\)\]\(\s*https?:/;

const document: DocumentRecord = {
  id: 'a1b2c3d4e5f6',
  name: evilName,
  scope: 'discord:1',
  pages: 3,
  bytes: 1_000,
  parents: 1,
  children: 4,
  uploader: evilName,
  ingestedAt: '2026-12-01T10:00:00.000Z',
  embeddingModel: null,
};
const channelSet: DocumentSet = { kind: 'channel', place: 'server' };

/** The ingest's own refusal, which names the file as it is. */
function refusal(name: string): RagentError {
  try {
    detectFileKind(name, new TextEncoder().encode('not a PDF at all'), { maxFileBytes: 1_000 });
  } catch (error) {
    return error as RagentError;
  }
  throw new Error(`${name} was not refused`);
}

const files: IngestFileState[] = [
  { name: evilName, state: 'failed', error: refusal(evilName) },
  { name: evilName, state: 'waiting' },
];

describe('file names shown literally', () => {
  it('on Discord: ingest progress and results, the sources embed, the document list and notices', () => {
    const shown = [
      ...renderDiscordReply(
        { kind: 'ingest-result', files, reference: 'r1' },
        { messageContentIntent: false },
      ).map((part) => part.content),
      ...renderDiscordReply(
        { kind: 'interrupted-ingest', ingest: { file: evilName, added: [evilName], notAdded: [evilName] } },
        { messageContentIntent: false },
      ).map((part) => part.content),
      sourcesEmbed([{ file: evilName, docId: 'd1', pages: [1, 1] }]).description ?? '',
      sourcesEmbed([
        { file: evilName, docId: 'd1', pages: [1, 1], link: 'https://discord.com/channels/1/2/3' },
      ]).description ?? '',
      documentListText([{ set: channelSet, documents: [document] }], discordMarkup, 2_000),
      removedReplyText(document, channelSet, discordMarkup),
    ];
    for (const text of shown) {
      expect(text).toContain('Verify');
      expect(text).not.toMatch(liveMaskedLink);
    }
  });

  it('on Slack: ingest progress and results and the sources line never link the name', () => {
    const messages = [
      ...renderSlackReply({ kind: 'ingest-result', files, reference: 'r1' }),
      renderStatus({ kind: 'ingest', files }),
    ];
    const shown = JSON.stringify(messages) + formatSources([{ file: evilName, docId: 'd1', pages: [1, 1] }]);
    expect(shown).toContain('Verify');
    // Neither a mrkdwn link to the target nor a Markdown block that would render the masked link.
    expect(shown).not.toContain('<https://evil.example');
    for (const message of messages)
      for (const block of message.blocks ?? [])
        if (block.type === 'markdown') expect(String(block.text)).not.toMatch(liveMaskedLink);
  });
});

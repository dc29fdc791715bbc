/**
 * What the core derives from every platform's parsed message: whom it is addressed to, its files as
 * names and downloads, and "@bot ingest" as an ingest job of those same files into the set asked for.
 */
import { describe, expect, it } from 'vitest';
import type { IngestFile } from '../../src/core/chat-platform.ts';
import { incomingMessage, type ParsedMessage } from '../../src/turns/incoming-message.ts';

const file: IngestFile = { name: 'a.pdf', download: async () => new Uint8Array([1]) };

const parsed = (more: Partial<ParsedMessage>): ParsedMessage => ({
  key: 'k',
  reference: 'ref',
  workspace: 'W',
  channel: 'C',
  thread: { threadId: 't', position: '1' },
  author: 'U',
  text: 'hello',
  mentionsBot: false,
  mentionsOthers: false,
  isDirectMessage: false,
  inThread: false,
  fromBot: false,
  location: {},
  notice: async () => {},
  open: async () => {
    throw new Error('not opened in this test');
  },
  attachments: [],
  ...more,
});

describe('a parsed message as the runner receives it', () => {
  it('is addressed to others only when it mentions them and not the bot', () => {
    expect(incomingMessage(parsed({ mentionsOthers: true })).addressedToOthers).toBe(true);
    expect(incomingMessage(parsed({ mentionsOthers: true, mentionsBot: true })).addressedToOthers).toBe(
      false,
    );
    expect(incomingMessage(parsed({})).addressedToOthers).toBe(false);
  });

  it('defaults the flags a platform may not have, and leaves auto-answer off unless given', () => {
    const message = incomingMessage(parsed({ autoAnswerChannel: undefined }));
    expect(message).toMatchObject({ repliesToBot: false, isEdit: false, textHidden: false });
    expect('autoAnswerChannel' in message).toBe(false);
    expect(incomingMessage(parsed({ autoAnswerChannel: 'C-set' })).autoAnswerChannel).toBe('C-set');
  });

  it('lists its files, reads them for the thread, and ingests the same files only where it may', () => {
    const message = incomingMessage(parsed({ attachments: [file] }));
    expect(message.files).toEqual(['a.pdf']);
    expect(message.attachedFiles?.()).toEqual([file]);
    expect(message.ingest).toBeUndefined();
    const ingesting = incomingMessage(
      parsed({
        attachments: [file],
        ingestFrom: {
          key: 'ingest-k',
          reference: 'ref',
          uploader: 'U',
          sets: { channel: 'C-set', place: 'W-set' },
          defaultSet: 'channel',
          open: async () => {
            throw new Error('not opened in this test');
          },
        },
      }),
    );
    expect(ingesting.ingest?.('ingest this')).toMatchObject({
      key: 'ingest-k',
      scope: 'C-set',
      files: [file],
    });
    expect(ingesting.ingest?.('ingest this for everyone').scope).toBe('W-set');
  });
});

/**
 * What the core derives from every platform's parsed message: whom it is addressed to, its files as
 * names and downloads, and "@bot ingest" as an ingest job of those same files into the set asked for.
 */
import { describe, expect, it } from 'vitest';
import type { IngestFile } from '../../src/core/chat-platform.ts';
import type { AnswerThread, ThreadRange } from '../../src/turns/answer-thread.ts';
import { incomingMessage, type ParsedMessage } from '../../src/turns/incoming-message.ts';

const file: IngestFile = { name: 'a.pdf', download: async () => new Uint8Array([1]) };

/** A thread that records what the core asked of it. */
function recordingThread() {
  const asked = { opened: [] as string[], reads: [] as Array<{ range: ThreadRange; limit: number }> };
  const thread: AnswerThread = {
    threadId: 'chat:W:T1',
    location: { channel: 'C', thread: 'T1' },
    scopes: async () => ['chat:W:C', 'shared'],
    open: async (question) => {
      asked.opened.push(question);
      return { location: { at: 'status' }, showStatus: async () => {}, finish: async () => {} };
    },
    read: async (range, limit) => {
      asked.reads.push({ range, limit });
      return [];
    },
  };
  return { thread, asked };
}

const parsed = (more: Partial<ParsedMessage>): ParsedMessage => ({
  key: 'k',
  reference: 'ref',
  workspace: 'W',
  channel: 'C',
  answeredIn: recordingThread().thread,
  position: '1',
  author: 'U',
  text: 'hello',
  mentionsBot: false,
  mentionsOthers: false,
  isDirectMessage: false,
  inThread: false,
  fromBot: false,
  notice: async () => {},
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

  it('is answered in its thread: reached there, opened there for its author, read before itself', async () => {
    const { thread, asked } = recordingThread();
    const message = incomingMessage(
      parsed({ answeredIn: thread, position: 'P7', text: 'how?', author: 'U9' }),
    );
    expect(message.thread).toEqual({ threadId: 'chat:W:T1', position: 'P7' });
    expect(message.location).toEqual({ channel: 'C', thread: 'T1' });
    const { surface, place } = await message.open();
    expect(surface.location).toEqual({ at: 'status' });
    expect(place).toEqual({ threadId: 'chat:W:T1', scopes: ['chat:W:C', 'shared'], user: 'U9' });
    expect(asked.opened).toEqual(['how?']);
    await message.readThread?.(20);
    expect(asked.reads).toEqual([{ range: { before: 'P7' }, limit: 20 }]);
  });
});

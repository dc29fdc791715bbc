/**
 * Share, written once in the core, over the real SQLite coordination store: the post in the channel
 * (the credit without a ping, the question literal, then the answer), the private note, and what the
 * presser alone is told otherwise — already shared, not theirs, a refused post.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { createLogger } from '../../src/logger.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import type { Actor } from '../../src/turns/actor.ts';
import type { ChatMarkup } from '../../src/turns/chat-markup.ts';
import {
  alreadySharedText,
  sharedNoteText,
  shareFailedText,
  shareNotYoursText,
} from '../../src/turns/messages-en.ts';
import { privateThreadId, type SharedAnswer } from '../../src/turns/private-answers.ts';
import { sharePrivateAnswer } from '../../src/turns/share-private-answer.ts';

/** A markup whose every piece is visible in the text it writes. */
const markup: ChatMarkup = {
  literal: (text) => `‹${text}›`,
  bold: (text) => `*${text}*`,
  code: (text) => `\`${text}\``,
  channel: (id) => `#${id}`,
  icons: { warning: '!', removed: '-', moved: '>', done: '✓' },
  terms: {} as ChatMarkup['terms'],
};
const actor = (id: string, name = 'Alice <@here>'): Actor => ({
  id,
  name,
  managesPlace: async () => false,
  managesChannel: async () => false,
});
const asker = { platform: 'chat', workspace: 'W1', channel: 'C1', user: 'U1' };

describe('sharing a private answer', () => {
  let directory: string;
  let store: CoordinationStore;
  beforeEach(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'ragent-share-'));
    store = openSqliteCoordinationStore(directory);
    await store.recordAnswer({
      answerId: 'A1',
      threadId: privateThreadId(asker),
      question: `How do loops work? ${'and more '.repeat(80)}`,
      answer: 'Loops repeat.',
      sources: [],
      at: new Date().toISOString(),
    });
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const press = async (by: Actor, options: { markup?: ChatMarkup; refuse?: Error } = {}) => {
    const told: string[] = [];
    const posts: Array<{ credit: string; shared: SharedAnswer }> = [];
    const notes: string[] = [];
    await sharePrivateAnswer(
      store,
      { platform: 'chat', workspace: 'W1', actor: by, answerId: 'A1' },
      {
        markup: options.markup ?? markup,
        logger: createLogger({ level: 'silent' }),
        tell: async (text) => void told.push(text),
        post: async (credit, shared) => {
          if (options.refuse) throw options.refuse;
          posts.push({ credit, shared });
        },
        markShared: async (note) => void notes.push(note),
        refusal: (error) =>
          (error as { code?: string }).code ? `refused: ${(error as { code?: string }).code}` : undefined,
      },
    );
    return { told, posts, notes };
  };

  it('posts the credit (name literal, question literal and cut) and the answer once, then notes it privately', async () => {
    const { told, posts, notes } = await press(actor('U1'));
    expect(told).toEqual([]);
    const [post, ...more] = posts;
    expect(more).toEqual([]);
    expect(post?.credit).toMatch(/^\*‹Alice <@here>›\* asked: ‹How do loops work\? and more/);
    // The question is cut to 500 characters, ending with an ellipsis.
    expect(post?.credit.length).toBeLessThan(560);
    expect(post?.credit).toMatch(/…›$/);
    expect(post?.shared).toMatchObject({
      asker,
      threadId: privateThreadId(asker),
      answer: { body: 'Loops repeat.' },
    });
    expect(notes).toEqual([`✓ ${sharedNoteText}`]);
    expect((await press(actor('U1'))).told).toEqual([alreadySharedText]);
  });

  it('credits through the platform’s own way of naming a person where it has one', async () => {
    const { posts } = await press(actor('U1'), {
      markup: { ...markup, person: (person) => `<@${person.id}>` },
    });
    expect(posts[0]?.credit).toMatch(/^<@U1> asked: /);
  });

  it('tells someone else it is not theirs, and leaves the share to the asker', async () => {
    const other = await press(actor('U2'));
    expect(other).toEqual({ told: [shareNotYoursText], posts: [], notes: [] });
    expect((await press(actor('U1'))).posts).toHaveLength(1);
  });

  it('says what the platform refused when the post fails, in its words where it gives them', async () => {
    const refused = Object.assign(new Error('An API error occurred'), { code: 'not_in_channel' });
    const { told, notes } = await press(actor('U1'), { refuse: refused });
    expect(told).toEqual([shareFailedText('refused: not_in_channel')]);
    expect(notes).toEqual([]);
  });
});

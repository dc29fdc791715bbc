/**
 * Share, written once in the core, over the real SQLite coordination store: the post in the channel
 * (the credit without a ping, the question literal, then the answer), the private note, and what the
 * presser alone is told otherwise — already shared, not theirs, a refused post.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CreditRendering,
  creditedMessages,
  sharePrivateAnswer,
} from '../../src/answer-actions/share-private-answer.ts';
import type { Reply } from '../../src/core/chat-platform.ts';
import type { CoordinationStore } from '../../src/core/coordination-store.ts';
import { createLogger } from '../../src/logger.ts';
import type { PrivateReplyPort } from '../../src/replies/private-surface.ts';
import { openSqliteCoordinationStore } from '../../src/stores/sqlite-coordination-store.ts';
import type { Actor } from '../../src/turns/actor.ts';
import type { ChatMarkup } from '../../src/turns/chat-markup.ts';
import {
  alreadySharedText,
  sharedNoteText,
  shareFailedText,
  shareNotYoursText,
} from '../../src/turns/messages-en.ts';
import { privateThreadId, releaseShare } from '../../src/turns/private-answers.ts';

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

/**
 * The press's own private reply over plain strings: a notice (not replacing) is what the presser is
 * told, a replacement is the private message's new look; the answer's parts are split at `|`, a note
 * in small print joins the last (`last (note)`).
 */
function pressPort(record: { told: string[]; notes: string[]; rendered?: Reply[]; gone?: boolean }) {
  const port: PrivateReplyPort<string> = {
    logger: createLogger({ level: 'silent' }),
    location: () => ({}),
    reply: async (message, replace) => {
      if (replace) record.notes.push(message);
      else if (record.gone) throw new Error('unknown interaction');
      else record.told.push(message);
      return true;
    },
    render: {
      status: (status) => status.kind,
      notice: (text) => text,
      reply: (reply) => {
        record.rendered?.push(reply);
        return reply.kind === 'answer' ? reply.answer.body.split('|') : [];
      },
      withSmallPrint: (last, note) => `${last} (${note})`,
      withButtonRow: (last, share) => `${last} [${share.label}]`,
    },
  };
  return port;
}

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

  /**
   * Presses Share with messages that are plain strings (`pressPort`), the credit joining the first
   * part (`credit / first`).
   */
  const press = async (
    by: Actor,
    options: { markup?: ChatMarkup; refuse?: Error; refuseFrom?: number; presserGone?: boolean } = {},
  ) => {
    const told: string[] = [];
    let postCalls = 0;
    const posts: Array<{ channel: string; messages: string[] }> = [];
    const rendered: Reply[] = [];
    const notes: string[] = [];
    await sharePrivateAnswer<string>(
      store,
      { platform: 'chat', workspace: 'W1', actor: by, answerId: 'A1' },
      {
        markup: options.markup ?? markup,
        port: pressPort({ told, notes, rendered, gone: options.presserGone }),
        answer: (shared) => shared.answer.body.split('|'),
        credit: { join: (credit, first) => `${credit} / ${first}`, alone: (credit) => credit },
        post: async (channel, message) => {
          if (options.refuse && (options.refuseFrom ?? 0) <= postCalls++) throw options.refuse;
          const last = posts.at(-1);
          if (last?.channel === channel) last.messages.push(message);
          else posts.push({ channel, messages: [message] });
        },
        refusal: (error) =>
          (error as { code?: string }).code ? `refused: ${(error as { code?: string }).code}` : undefined,
      },
    );
    return { told, posts, notes, rendered };
  };

  it('posts the credit (name literal, question literal and cut) and the answer once, then notes it privately', async () => {
    const { told, posts, notes, rendered } = await press(actor('U1'));
    expect(told).toEqual([]);
    const [post, ...more] = posts;
    expect(more).toEqual([]);
    expect(post?.channel).toBe('C1');
    const [credited, ...rest] = post?.messages ?? [];
    expect(rest).toEqual([]);
    expect(credited).toMatch(/^\*‹Alice <@here>›\* asked: ‹How do loops work\? and more/);
    const credit = credited?.split(' / ')[0] ?? '';
    // The question is cut to 500 characters, ending with an ellipsis; the answer follows it.
    expect(credit.length).toBeLessThan(560);
    expect(credit).toMatch(/…›$/);
    expect(credited).toMatch(/ \/ Loops repeat\.$/);
    // The private message keeps its part of the answer, as the private reply showed it, with the note.
    expect(rendered).toMatchObject([
      { kind: 'answer', threadId: privateThreadId(asker), answer: { body: 'Loops repeat.' } },
    ]);
    expect(notes).toEqual([`Loops repeat. (✓ ${sharedNoteText})`]);
    expect((await press(actor('U1'))).told).toEqual([alreadySharedText]);
  });

  it('credits the first part of a long answer, and keeps the last part privately', async () => {
    await store.recordAnswer({
      answerId: 'A2',
      threadId: privateThreadId(asker),
      question: 'How do loops end?',
      answer: 'They end.|When told to.',
      sources: [],
      at: new Date().toISOString(),
    });
    const told: string[] = [];
    const posted: string[] = [];
    const notes: string[] = [];
    await sharePrivateAnswer<string>(
      store,
      { platform: 'chat', workspace: 'W1', actor: actor('U1'), answerId: 'A2' },
      {
        markup,
        port: pressPort({ told, notes }),
        answer: (shared) => shared.answer.body.split('|'),
        // The credit never fits with the answer here: it goes in a message of its own, before it.
        credit: { join: () => undefined, alone: (credit) => credit },
        post: async (_channel, message) => void posted.push(message),
      },
    );
    expect(told).toEqual([]);
    expect(posted).toEqual(['*‹Alice <@here>›* asked: ‹How do loops end?›', 'They end.', 'When told to.']);
    expect(notes).toEqual([`When told to. (✓ ${sharedNoteText})`]);
  });

  it('credits through the platform’s own way of naming a person where it has one', async () => {
    const { posts } = await press(actor('U1'), {
      markup: { ...markup, person: (person) => `<@${person.id}>` },
    });
    expect(posts[0]?.messages[0]).toMatch(/^<@U1> asked: /);
  });

  it('tells someone else it is not theirs, and leaves the share to the asker', async () => {
    const other = await press(actor('U2'));
    expect(other).toEqual({ told: [shareNotYoursText], posts: [], notes: [], rendered: [] });
    expect((await press(actor('U1'))).posts).toHaveLength(1);
  });

  it('only logs what it would tell a presser who can no longer be told', async () => {
    const gone = await press(actor('U2'), { presserGone: true });
    expect(gone).toEqual({ told: [], posts: [], notes: [], rendered: [] });
  });

  it('says what the platform refused when the post fails, in its words where it gives them', async () => {
    const refused = Object.assign(new Error('An API error occurred'), { code: 'not_in_channel' });
    const { told, notes } = await press(actor('U1'), { refuse: refused });
    expect(told).toEqual([shareFailedText('refused: not_in_channel')]);
    expect(notes).toEqual([]);
  });

  it('lets Share be pressed again when nothing reached the channel, but never posts a part twice', async () => {
    const refused = Object.assign(new Error('An API error occurred'), { code: 'not_in_channel' });
    expect((await press(actor('U1'), { refuse: refused })).told).toEqual([
      shareFailedText('refused: not_in_channel'),
    ]);
    // Nothing was posted: the second press shares it.
    const again = await press(actor('U1'));
    expect(again.told).toEqual([]);
    expect(again.posts).toHaveLength(1);

    await store.recordAnswer({
      answerId: 'A1',
      threadId: privateThreadId(asker),
      question: 'How do loops end?',
      answer: 'They end.|When told to.',
      sources: [],
      at: new Date().toISOString(),
    });
    // (The answer is recorded anew with two parts; its earlier share is forgotten for this case.)
    await releaseShare(store, { platform: 'chat', workspace: 'W1', answerId: 'A1' });
    // The second part is refused after the first was posted: the share stands, told as failed once.
    const half = await press(actor('U1'), { refuse: refused, refuseFrom: 1 });
    expect(half.posts.flatMap((post) => post.messages)).toHaveLength(1);
    expect(half.told).toEqual([shareFailedText('refused: not_in_channel')]);
    expect((await press(actor('U1'))).told).toEqual([alreadySharedText]);
  });
});

describe('the credit above a shared answer', () => {
  /** Joins where the two together are at most 20 characters, as a platform's length limit would. */
  const within20: CreditRendering<string> = {
    join: (credit, first) => (credit.length + first.length + 1 <= 20 ? `${credit}\n${first}` : undefined),
    alone: (credit) => `[${credit}]`,
  };

  it('joins the first message where the two fit in one', () => {
    expect(creditedMessages(within20, 'Al asked:', 'Loops.')).toEqual(['Al asked:\nLoops.']);
  });

  it('goes in a message of its own before the first where they do not fit', () => {
    expect(creditedMessages(within20, 'Al asked:', 'Loops repeat, always.')).toEqual([
      '[Al asked:]',
      'Loops repeat, always.',
    ]);
  });

  it('stands alone where the answer has no message', () => {
    expect(creditedMessages(within20, 'Al asked:', undefined)).toEqual(['[Al asked:]']);
  });
});

/**
 * The core's thread reading, over a thread held in memory and served a page at a time the two ways
 * platforms serve them: from the thread's start forward (the newest kept), or back from the question
 * (stopping once enough are kept); the starter message; each person named once, failures kept as
 * the message gives them; the bot's own messages and mentions of it as ragent's; a refused page.
 */
import { describe, expect, it } from 'vitest';
import { nameMentions, readThread, type ThreadPages } from '../../src/turns/read-thread.ts';

interface Wire {
  id: number;
  user: string;
  text: string;
}

const thread: Wire[] = Array.from({ length: 45 }, (_, index) => ({
  id: index,
  user: `U${index % 3}`,
  text: index % 10 === 5 ? '' : `message ${index}`,
}));

function pages(order: ThreadPages<Wire>['order'], more: Partial<ThreadPages<Wire>> = {}) {
  const asked: Array<{ cursor: string | undefined; size: number }> = [];
  const looked: string[] = [];
  const source: ThreadPages<Wire> = {
    where: {},
    idOf: (message) => String(message.id),
    isOwn: (message) => message.user === 'BOT',
    order,
    pageSize: 10,
    page: async (cursor, size) => {
      asked.push({ cursor, size });
      if (order === 'oldest-first') {
        const from = Number(cursor ?? 0);
        const messages = thread.slice(from, from + size);
        return { messages, next: from + size < thread.length ? String(from + size) : undefined };
      }
      // Back from the question: the core names the message to read before.
      const before = Number(cursor ?? thread.length);
      return { messages: thread.slice(Math.max(0, before - size), before).reverse() };
    },
    keep: (message) => message.text !== '',
    refusal: (error) => ((error as Error).message === 'forbidden' ? 'Let me read the thread.' : undefined),
    lookUpName: async (user) => {
      looked.push(user);
      if (user === 'U2') throw new Error('no such member');
      return `Name of ${user}`;
    },
    read: (message) => ({
      // U9 is an app: named as the message gives it, never looked up.
      person: message.user === 'U9' ? undefined : message.user,
      shown: message.user.toLowerCase(),
      text: message.text,
      at: new Date(message.id * 1000),
    }),
    ...more,
  };
  return { source, asked, looked };
}

describe('reading a thread the bot joins', () => {
  it('walks a thread from its start and keeps the newest, oldest first', async () => {
    const { source, asked } = pages('oldest-first');
    const read = await readThread(source, 7);
    expect(read.map((message) => message.text)).toEqual(
      [37, 38, 39, 40, 41, 42, 43, 44]
        .filter((id) => id !== 35)
        .slice(-7)
        .map((id) => `message ${id}`),
    );
    expect(asked).toHaveLength(5);
    expect(asked[1]).toEqual({ cursor: '10', size: 10 });
  });

  it('reads back from the question only as far as it needs, skipping what is not context', async () => {
    const { source, asked } = pages('newest-first');
    const read = await readThread(source, 12);
    // 44 … 32 without the empty 35: twelve messages, the last page asked only for what was missing.
    expect(read.map((message) => message.text)).toEqual(
      [32, 33, 34, 36, 37, 38, 39, 40, 41, 42, 43, 44].map((id) => `message ${id}`),
    );
    expect(asked).toEqual([
      { cursor: undefined, size: 10 },
      { cursor: '35', size: 3 },
    ]);
    // Read before a question in the thread: the first page ends before it; a page not full is the last.
    const before = await readThread({ ...source, where: { before: '4' } }, 12);
    expect(before.map((message) => message.text)).toEqual([0, 1, 2, 3].map((id) => `message ${id}`));
    expect(asked.slice(2)).toEqual([{ cursor: '4', size: 10 }]);
  });

  it('stops after ten pages however long the thread', async () => {
    const { source, asked } = pages('oldest-first', { pageSize: 2 });
    const read = await readThread(source, 100);
    expect(asked).toHaveLength(10);
    expect(read.at(-1)?.text).toBe('message 19');
  });

  it('puts the starter message first while there is room, and only then', async () => {
    const starter: Wire = { id: -1, user: 'U0', text: 'the starter' };
    const fetched: string[] = [];
    const starterOf = (id: string) => ({
      id,
      fetch: async () => {
        fetched.push(id);
        return starter;
      },
    });
    const { source } = pages('newest-first', { starter: starterOf('-1') });
    const few = await readThread(source, 100);
    expect(few[0]?.text).toBe('the starter');
    const full = await readThread(source, 5);
    expect(full.map((message) => message.text)).not.toContain('the starter');
    // A starter the pages already held (a thread the platform lists it in) is not fetched again.
    await readThread({ ...source, starter: starterOf('3') }, 100);
    // Nor is one that is the question itself.
    await readThread({ ...source, where: { exclude: '-1' } }, 100);
    expect(fetched).toEqual(['-1']);
  });

  it('leaves out the question and, when asked, the bot’s own messages', async () => {
    const own = { id: 100, user: 'BOT', text: 'my status' };
    const { source } = pages('newest-first', {
      where: { exclude: '44', skipOwn: true },
      starter: { id: '100', fetch: async () => own },
    });
    const read = await readThread(source, 100);
    expect(read.map((message) => message.text)).not.toContain('message 44');
    expect(read.map((message) => message.text)).not.toContain('my status');
    expect(read.at(-1)?.text).toBe('message 43');
    const withOwn = await readThread({ ...source, where: {} }, 100);
    expect(withOwn[0]?.text).toBe('my status');
  });

  it('names each person once, keeping the given name when the lookup fails', async () => {
    const { source, looked } = pages('oldest-first');
    const read = await readThread(source, 6);
    expect(looked.sort()).toEqual(['U0', 'U1', 'U2']);
    expect(new Set(read.map((message) => message.author))).toEqual(
      new Set(['Name of U0', 'Name of U1', 'u2']),
    );
  });

  it('names the bot’s own messages ragent’s and an app as the message gives it, looking neither up', async () => {
    const own: Wire = { id: 100, user: 'BOT', text: 'my answer' };
    const app: Wire = { id: 101, user: 'U9', text: 'a webhook' };
    const { source, looked } = pages('oldest-first', {
      page: async () => ({ messages: [own, app] }),
    });
    const read = await readThread(source, 10);
    expect(read).toEqual([
      { author: 'ragent', text: 'my answer', fromBot: true, at: new Date(100_000).toISOString() },
      { author: 'u9', text: 'a webhook', fromBot: false, at: new Date(101_000).toISOString() },
    ]);
    expect(looked).toEqual([]);
  });

  it('names the mentions in a text, the bot as @ragent, each id asked once', async () => {
    const asked: string[] = [];
    const nameOf = async (id: string) => {
      asked.push(id);
      return `name-${id}`;
    };
    const text = await nameMentions(
      '<@B1> ask <@U2> and <@U2|x>, not <#C3>',
      /<@(\w+)(?:\|[^>]*)?>/g,
      'B1',
      nameOf,
    );
    expect(text).toBe('@ragent ask @name-U2 and @name-U2, not <#C3>');
    expect(asked).toEqual(['U2']);
  });

  it('says what to fix when the platform refuses a page, and passes other failures on', async () => {
    const failing = (message: string) =>
      pages('newest-first', {
        page: async () => {
          throw new Error(message);
        },
      }).source;
    await expect(readThread(failing('forbidden'), 5)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: 'Let me read the thread.',
    });
    await expect(readThread(failing('socket hang up'), 5)).rejects.toThrow('socket hang up');
  });
});

/**
 * The thread a bot joins, fitted for the model: the message cap, the token budget (newest first, the
 * newest cut rather than dropped), mention syntax made inert, and the reader's failures never
 * failing a turn (logged once per kind).
 */
import { describe, expect, it } from 'vitest';
import { createThreadReader } from '../../src/conversations/read-thread-context.ts';
import {
  fitThread,
  formatThread,
  neutralizeThreadText,
  threadLine,
} from '../../src/conversations/thread-context.ts';
import type { ThreadMessage } from '../../src/core/types.ts';
import { countTokens } from '../../src/graph/token-counter.ts';
import { createLogger } from '../../src/logger.ts';

const at = '2026-01-01T00:00:00.000Z';
const said = (author: string, text: string, fromBot = false): ThreadMessage => ({
  author,
  text,
  fromBot,
  at,
});

describe('fitting a thread to its limits', () => {
  const thread = [said('Ana', 'one'), said('Ben', 'two'), said('ragent', 'three', true), said('Ana', 'four')];

  it('keeps the newest messages up to the cap, oldest first', () => {
    const fitted = fitThread(thread, { messages: 2, tokens: 1_000 });
    expect(fitted.messages.map((message) => message.text)).toEqual(['three', 'four']);
    expect(fitted.omitted).toBe(2);
  });

  it('keeps as many of the newest as the token budget holds, leaving older ones out whole', () => {
    const cost = (message: ThreadMessage) => countTokens(threadLine(message)) + 1;
    const budget = cost(thread[3]!) + cost(thread[2]!);
    const fitted = fitThread(thread, { messages: 50, tokens: budget });
    expect(fitted.messages.map((message) => message.text)).toEqual(['three', 'four']);
    expect(fitThread(thread, { messages: 50, tokens: budget - 1 }).messages.map((m) => m.text)).toEqual([
      'four',
    ]);
  });

  it('cuts the newest message to the budget when it alone is too long, keeping its start', () => {
    const long = said('Ana', `start ${'word '.repeat(500)}end`);
    const fitted = fitThread([said('Ben', 'older'), long], { messages: 50, tokens: 30 });
    expect(fitted.messages).toHaveLength(1);
    const [kept] = fitted.messages;
    expect(kept!.text.startsWith('start word')).toBe(true);
    expect(kept!.text.endsWith('…')).toBe(true);
    expect(countTokens(threadLine(kept!)) + 1).toBeLessThanOrEqual(30);
    expect(fitted.omitted).toBe(1);
  });

  it('reads nothing when turned off, and skips empty messages', () => {
    expect(fitThread(thread, { messages: 0, tokens: 1_000 }).messages).toEqual([]);
    const fitted = fitThread([said('Ana', '   '), said('Ben', 'hi')], { messages: 50, tokens: 1_000 });
    expect(fitted.messages.map((message) => message.text)).toEqual(['hi']);
    expect(fitted.omitted).toBe(0);
  });

  it('marks the bot’s own messages and says how many were left out', () => {
    const text = formatThread(fitThread(thread, { messages: 3, tokens: 1_000 }));
    expect(text).toBe('(1 older message of the thread not shown)\nBen: two\nragent (you): three\nAna: four');
  });
});

describe('making thread text inert', () => {
  it.each([
    ['<!channel> deploy', '@\u2060channel deploy'],
    ['<!here|here> now', '@\u2060here now'],
    ['<!everyone>', '@\u2060everyone'],
    ['@everyone and @here', '@\u2060everyone and @\u2060here'],
    ['ask <@U123ABC|dana>', 'ask @dana'],
    ['ask <@U123ABC>', 'ask @someone'],
    ['ask <@!123456789012345678>', 'ask @someone'],
    ['ping <@&123456789012345678>', 'ping @role'],
    ['team <!subteam^S123|@oncall>', 'team @oncall'],
    ['see <#C123|general>', 'see #general'],
  ])('%s', (raw, inert) => {
    expect(neutralizeThreadText(raw)).toBe(inert);
  });

  it('makes authors’ names inert too', () => {
    expect(threadLine(said('@everyone', 'hi'))).toBe('@\u2060everyone: hi');
  });
});

describe('reading a thread', () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => lines.push(line) } });

  it('goes on without the thread when reading fails, warning once per kind of failure', async () => {
    const read = createThreadReader({ messages: 50, tokens: 1_000, logger });
    const refused = async () => {
      throw new Error('An API error occurred: missing_scope');
    };
    expect(await read(refused, { threadId: 't1' })).toBeUndefined();
    expect(await read(refused, { threadId: 't2' })).toBeUndefined();
    const warnings = lines.filter((line) => line.includes('"level":40') || line.includes('"level":"warn"'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('missing_scope');
  });

  it('gives up on a read that takes too long', async () => {
    const read = createThreadReader({ messages: 50, tokens: 1_000, logger, timeoutMs: 20 });
    const never = () => new Promise<ThreadMessage[]>(() => {});
    expect(await read(never, {})).toBeUndefined();
  });

  it('asks the platform for at most the cap, and formats what it got', async () => {
    const read = createThreadReader({ messages: 7, tokens: 1_000, logger });
    let asked = 0;
    const text = await read(async (limit) => {
      asked = limit;
      return [said('Ana', 'hello <!channel>')];
    }, {});
    expect(asked).toBe(7);
    expect(text).toBe('Ana: hello @\u2060channel');
  });
});

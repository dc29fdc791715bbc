/**
 * The one router of chat commands, against a fake reply port that records every call in order: which
 * way a call goes (help at once, only help outside a place, ingest and ask to the platform's handlers, a
 * name the picker no longer has), that the acknowledgement comes before any I/O of the command, and
 * that the core's reply follows it. Real stores (SQLite in a temp data dir) for the commands that run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArgumentValues } from '../../src/commands/command-request.ts';
import { type CommandSpec, commandTable } from '../../src/commands/command-table.ts';
import { helpText } from '../../src/commands/help-command.ts';
import { parseCommandText } from '../../src/commands/parse-command-text.ts';
import { type CommandCall, pickedCommand, routeCommand } from '../../src/commands/route-command.ts';
import { RagentError } from '../../src/errors.ts';
import { createLogger } from '../../src/logger.ts';
import { autoAnswerStatusText } from '../../src/turns/messages-en.ts';
import { placesOf } from '../../src/turns/place-sets.ts';
import { plainMarkup } from '../support/plain-markup.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

const markup = plainMarkup;
const table = commandTable(markup.terms);
const syntax = { channel: () => undefined, mentionable: () => undefined, unescape: (text: string) => text };
const typed = (text: string) => parseCommandText(text, table, syntax);
/** `values`: the arguments the platform read; 'unusable' when one is not what the command takes. */
const picked = (
  name: string,
  values: ArgumentValues | 'unusable' = {},
  from: readonly CommandSpec[] = table,
) => pickedCommand(from, name, 'ragent chat register', () => (values === 'unusable' ? undefined : values));
const help = helpText(markup, true);

describe('routing a chat command', () => {
  let services: TestServices;
  beforeAll(async () => {
    services = await createTestServices({ ollamaUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await services?.dispose();
  });

  /** Routes `call` and returns what the platform was asked to do, in order. */
  async function route(
    call: CommandCall,
    options: { inPlace?: boolean; acknowledges?: boolean; at?: () => Promise<never> } = {},
  ): Promise<string[]> {
    const done: string[] = [];
    const record = (what: string) => async (text?: string) => {
      done.push(text === undefined ? what : `${what}: ${text}`);
    };
    await routeCommand({
      call,
      inPlace: options.inPlace ?? true,
      replies: {
        reply: record('reply'),
        markup,
        logger: createLogger({ level: 'silent' }),
        reference: '/ragent T1',
      },
      ...(options.acknowledges !== false && {
        acknowledgement: { defer: record('defer'), answer: record('answer') },
      }),
      handlers: { ingest: record('ingest'), ask: record('ask') },
      actor: () => ({
        id: 'U1',
        name: 'Ann',
        managesPlace: async () => false,
        managesChannel: async () => false,
      }),
      at:
        options.at ??
        (async () => {
          done.push('read the place');
          return { place: 'team1', channel: 'general', inDirectMessage: false };
        }),
      places: placesOf('chat', 'team'),
      known: {
        lookUpChannel: async () => {
          throw new Error('no channel is named');
        },
        readsEveryMessage: true,
      },
      maxLength: 2_000,
      services,
    });
    return done;
  }

  it('shows help at once, then with the channel’s auto-answer line; outside a place, only at once', async () => {
    expect(await route(picked('help'))).toEqual([
      `answer: ${help}`,
      'read the place',
      `reply: ${help}\n\n${autoAnswerStatusText(false, '`/ragent autoanswer`')}`,
    ]);
    expect(await route(picked('help'), { inPlace: false })).toEqual([`answer: ${help}`]);
    // A platform that acknowledged on receipt gets the one reply.
    const withLine = `reply: ${help}\n\n${autoAnswerStatusText(false, '`/ragent autoanswer`')}`;
    expect(await route(picked('help'), { acknowledges: false })).toEqual(['read the place', withLine]);
    expect(await route(picked('help'), { inPlace: false, acknowledges: false })).toEqual([`reply: ${help}`]);
  });

  it('acknowledges a command before reading where it ran, then replies with its text', async () => {
    expect(await route(picked('docs'))).toEqual([
      'defer',
      'read the place',
      expect.stringMatching(/^reply: .*(no documents|No documents)/i),
    ]);
  });

  it('answers only help outside a place, and a name the picker no longer has with how to update it', async () => {
    expect(await route(picked('docs'), { inPlace: false })).toEqual([
      'answer: Documents belong to a server: use this command in a server channel.',
    ]);
    expect(await route(picked('frobnicate'), { inPlace: false })).toEqual([
      'answer: Unknown command. Run `ragent chat register` again to update the commands.',
    ]);
    // In the table but run by nothing: also an older version's.
    const older = [...table, { name: 'frobnicate', description: '', arguments: [] }];
    expect(picked('frobnicate', {}, older)).toEqual({
      kind: 'unregistered',
      register: 'ragent chat register',
    });
  });

  it('gives ingest and ask to the platform’s handlers, with the text after the name', async () => {
    expect(await route(typed('ingest https://example.com/a for channel'))).toEqual([
      'ingest: https://example.com/a for channel',
    ]);
    expect(await route(typed('ask what is a loop?'), { acknowledges: false })).toEqual([
      'ask: what is a loop?',
    ]);
    expect(await route(picked('ask', { question: 'what?' }))).toEqual(['ask: ']);
    expect(await route(picked('ingest'), { inPlace: false })).toEqual([
      'answer: Documents belong to a server: use this command in a server channel.',
    ]);
  });

  it('answers what cannot run: nothing typed with help, an unknown word, arguments that do not fit', async () => {
    const empty = await route(typed('  '), { acknowledges: false });
    expect(empty).toEqual(['read the place', expect.stringMatching(/^reply: /)]);
    expect(empty[1]).toContain(help);
    expect((await route(typed('')))[0]).toBe(`answer: ${help}`);
    expect(await route(typed('frob'), { acknowledges: false })).toEqual([
      'read the place',
      `reply: I don’t know \`frob\`. To ask a question, mention me in a channel.\n\n${help}`,
    ]);
    expect(await route(picked('handoff', 'unusable'))).toEqual([
      'defer',
      'read the place',
      expect.stringMatching(/^reply: .*handoff/i),
    ]);
  });

  it('tells a failure after the acknowledgement as a warning reply', async () => {
    const at = async () => {
      throw new RagentError('PERMISSION_DENIED', 'The channel could not be read.');
    };
    expect(await route(picked('docs'), { at })).toEqual(['defer', 'reply: ! The channel could not be read.']);
  });
});

/**
 * The core's commands against real stores (SQLite in a temp data dir), with a plain markup and an actor
 * whose roles each case sets: the decisions (who may, which channel, what is said) are the core's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandPlace, CommandRequest } from '../../src/commands/command-request.ts';
import { commandTable } from '../../src/commands/command-table.ts';
import { parseCommandText } from '../../src/commands/parse-command-text.ts';
import { runCommand } from '../../src/commands/run-command.ts';
import { runTextCommand } from '../../src/commands/run-text-command.ts';
import { channelScope, placeScope } from '../../src/core/ids.ts';
import type { Actor } from '../../src/turns/actor.ts';
import { plainMarkup } from '../support/plain-markup.ts';
import { createTestServices, type TestServices } from '../support/test-services.ts';

const markup = plainMarkup;

const team = 'team1';
function place(channelId: string | undefined, overrides: Partial<CommandPlace> = {}): CommandPlace {
  return {
    sets: {
      ...(channelId ? { channel: channelScope('chat', team, channelId) } : {}),
      place: placeScope('chat', team),
      placeName: 'team',
    },
    ...(channelId ? { channelId } : {}),
    inDirectMessage: !channelId,
    channelScope: (id) => channelScope('chat', team, id),
    lookUpChannel: async (id) => ({
      scope: channelScope('chat', id.startsWith('other-') ? 'team2' : team, id),
      inPlace: !id.startsWith('other-'),
      answerable: !id.startsWith('voice-'),
    }),
    readsEveryMessage: true,
    platform: 'chat',
    handOffDefault: '@support',
    ...overrides,
  };
}

function actor(roles: { place?: boolean; channel?: boolean } = {}): Actor {
  return {
    id: 'U1',
    name: 'Ann',
    managesPlace: async () => roles.place ?? false,
    managesChannel: async () => roles.channel ?? roles.place ?? false,
  };
}

describe('runCommand', () => {
  let services: TestServices;
  beforeAll(async () => {
    services = await createTestServices({ ollamaUrl: 'http://127.0.0.1:9' });
  });
  afterAll(async () => {
    await services?.dispose();
  });
  const run = (
    name: string,
    request: Partial<CommandRequest> & { arguments?: CommandRequest['arguments'] },
  ) =>
    runCommand(
      name,
      { actor: actor(), place: place('general'), arguments: {}, markup, maxLength: 2_000, ...request },
      services,
    );

  it('switches auto-answer for this channel with the channel’s role, for another with the place’s', async () => {
    const general = channelScope('chat', team, 'general');
    expect(await run('autoanswer', { arguments: { state: 'on' } })).toBe(
      '! Only a channel admin can turn auto-answer on or off.',
    );
    expect(await services.coordination.channelSetting(general, 'auto-answer')).toBeUndefined();
    const on = await run('autoanswer', { arguments: { state: 'on' }, actor: actor({ channel: true }) });
    expect(on).toMatch(/^Auto-answer is on in #general: /);
    expect(await services.coordination.channelSetting(general, 'auto-answer')).toBe('on');
    // Another channel: the channel role is not enough; the place's is, for a channel of this place only.
    const forum = { state: 'on', channel: 'forum' };
    expect(await run('autoanswer', { arguments: forum, actor: actor({ channel: true }) })).toMatch(
      /^! Only a team admin can/,
    );
    expect(await run('autoanswer', { arguments: forum, actor: actor({ place: true }) })).toMatch(
      /^Auto-answer is on in #forum/,
    );
    for (const channel of ['other-forum', 'voice-room'])
      expect(
        await run('autoanswer', { arguments: { state: 'on', channel }, actor: actor({ place: true }) }),
      ).toMatch(/^! I cannot find that channel here/);
    expect(await run('autoanswer', { arguments: { state: 'on' }, place: place(undefined) })).toBe(
      'Auto-answer works in channels, not in direct messages.',
    );
  });

  it('shows the auto-answer line under help and docs, and says when the bot cannot read the questions', async () => {
    const unreadable = place('quiet', { readsEveryMessage: false });
    await run('autoanswer', {
      arguments: { state: 'on' },
      place: unreadable,
      actor: actor({ channel: true }),
    });
    const help = await run('help', { place: unreadable });
    expect(help).toMatch(
      /^\*ragent answers questions from the documents added to this team\.\*\n• \*Ask:\* /,
    );
    expect(help).toContain('• *Help:* `/ragent help` — this message.');
    expect(help).toMatch(/Auto-answer: on .*\nBut I cannot read unmentioned messages\.$/);
    // Following a reply only on a mention: help says so.
    expect(help).toContain('mention me or reply to one of my messages');
    expect(await run('docs', { place: place('empty') })).toBe(
      'No documents yet. Add files or web pages with `/ragent ingest`.\n\nAuto-answer: off (admins: `/ragent autoanswer` on answers questions posted here without a mention).',
    );
    expect(await run('help', { place: place(undefined) })).not.toContain('Auto-answer');
  });

  it('links and unlinks a channel of this place only, for who manages the channel', async () => {
    const linked = () => services.coordination.linkedChannels(channelScope('chat', team, 'eu'));
    const eu = place('eu');
    expect(await run('use', { place: eu, arguments: { channel: 'oncall' } })).toBe(
      '! Only a channel admin can link channels.',
    );
    const admin = actor({ channel: true });
    expect(await run('use', { place: eu, arguments: { channel: 'oncall' }, actor: admin })).toMatch(
      /now also searches the documents of #oncall/,
    );
    expect(await linked()).toEqual([channelScope('chat', team, 'oncall')]);
    await expect(run('use', { place: eu, arguments: { channel: 'other-x' }, actor: admin })).rejects.toThrow(
      /another channel in this/,
    );
    expect(await run('unuse', { place: eu, arguments: { channel: 'oncall' }, actor: admin })).toMatch(
      /no longer searches the documents of #oncall/,
    );
    expect(await linked()).toEqual([]);
    expect(
      await run('use', { place: place(undefined), arguments: { channel: 'oncall' }, actor: admin }),
    ).toBe('Use this command in the channel that should search more.');
  });

  it('sets who follows up, shown without a ping, and goes back to the default', async () => {
    const scope = channelScope('chat', team, 'help-desk');
    const desk = place('help-desk');
    expect(await run('handoff', { place: desk, arguments: { target: '@ops' } })).toBe(
      '! Only a team admin can choose who follows up.',
    );
    const admin = actor({ place: true });
    expect(await run('handoff', { place: desk, arguments: { target: '@ops' }, actor: admin })).toMatch(
      /^From now on, when an answer here gets 👎 or is not found, @ops is asked/,
    );
    expect(await services.coordination.channelSetting(scope, 'handoff')).toBe('@ops');
    expect(await run('handoff', { place: desk, arguments: { target: null }, actor: admin })).toBe(
      'This channel uses the default again: @support follows up.',
    );
    expect(await services.coordination.channelSetting(scope, 'handoff')).toBeUndefined();
    expect(
      await run('handoff', { place: place(undefined), arguments: { target: '@ops' }, actor: admin }),
    ).toBe('Use this command in the channel whose questions should be followed up.');
  });

  it('refuses a document it cannot find, in the error the platform shows', async () => {
    await expect(run('forget', { arguments: { name: 'nothing.pdf' } })).rejects.toMatchObject({
      code: 'DOCUMENT_NOT_FOUND',
    });
    await expect(run('frobnicate', {})).rejects.toThrow(/no operation/);
  });

  it('answers a text command it cannot run with the help, or with what to type', async () => {
    const syntax = {
      channel: () => undefined,
      mentionable: () => undefined,
      unescape: (text: string) => text,
    };
    const text = (typed: string) =>
      runTextCommand(
        parseCommandText(typed, commandTable(markup.terms), syntax),
        { actor: actor(), place: place(undefined), markup, maxLength: 2_000 },
        services,
      );
    const help = await text('');
    expect(help).toMatch(/^\*ragent answers questions/);
    expect(await text('frob*nicate')).toBe(
      `I don’t know \`frob\\*nicate\`. To ask a question, mention me in a channel.\n\n${help}`,
    );
    expect(await text('use #general')).toBe(
      'Which channel? Use `/ragent use ~channel` and pick the channel from the list.',
    );
    expect(await text('forget')).toBe(
      'Which document? Use `/ragent forget <name>`; `/ragent docs` lists them.',
    );
  });
});

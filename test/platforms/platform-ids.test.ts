/**
 * The Slack and Discord id helpers build and read their ids only through core/ids.ts: a team,
 * guild, channel or thread id holding `:` (or `%`) stays one part from thread id to link and from
 * channel scope to workspace/server scope, and every id today's ids are made of comes out byte for
 * byte as the hand-joined strings written before the codec, so stored data keeps working.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeId, decodeScope, placeOfScope } from '../../src/core/ids.ts';
import {
  discordMessageLink,
  discordThreadLink,
  isDiscordMessageLink,
} from '../../src/platforms/discord/discord-ids.ts';
import {
  channelScope as discordChannelScope,
  discordPlaces,
  guildScope,
  placeInDirectMessages,
  threadIdOf,
} from '../../src/platforms/discord/discord-scopes.ts';
import { platformOfThread } from '../../src/platforms/registry.ts';
import {
  placeAt,
  channelScope as slackChannelScope,
  slackPlaces,
  workspaceScope,
} from '../../src/platforms/slack/slack-context.ts';
import { slackThreadId, slackThreadLink } from '../../src/platforms/slack/slack-ids.ts';
import { scopesOfSets } from '../../src/turns/document-commands.ts';

/** A server thread's id, and what it searches from `channel` (the thread's parent). */
const placeInGuild = (guild: string, thread: string, channel: string) => ({
  threadId: threadIdOf({ id: thread, guildId: guild }),
  scopes: scopesOfSets(discordPlaces.sets(discordPlaces.at(guild, channel))),
});

/** Ids made mostly of what an escape is made of, so `:`, `%3A`, `%25`… all come up. */
const tricky = fc
  .string({ unit: fc.constantFrom(':', '%', '2', '5', '3', 'A', 'x', 'é'), minLength: 1 })
  .filter((id) => id.includes(':') || id.includes('%'));

describe('Slack ids through the codec', () => {
  it('keeps a team and channel holding ":" whole, from thread id to link and from channel to workspace', () => {
    const threadId = slackThreadId('E:org:T1', 'C:1%', '1712345678.000100');
    expect(threadId).toBe('slack:E%3Aorg%3AT1:C%3A1%25:1712345678.000100');
    expect(slackThreadLink(threadId)).toBe(
      'https://app.slack.com/client/E:org:T1/C:1%/thread/C:1%-1712345678.000100',
    );
    expect(platformOfThread(threadId)?.name).toBe('slack');

    const channel = slackChannelScope('E:org:T1', 'C:1%');
    expect(decodeScope(channel)).toEqual({
      kind: 'channel',
      platform: 'slack',
      place: 'E:org:T1',
      channel: 'C:1%',
    });
    expect(placeOfScope(channel)).toBe(workspaceScope('E:org:T1'));
    expect(decodeScope(workspaceScope('E:org:T1'))).toEqual({
      kind: 'place',
      platform: 'slack',
      place: 'E:org:T1',
    });
  });

  it('round-trips any team, channel and thread ts', () => {
    fc.assert(
      fc.property(tricky, tricky, tricky, (team, channel, threadTs) => {
        const threadId = slackThreadId(team, channel, threadTs);
        expect(decodeId(threadId)).toEqual({ platform: 'slack', parts: [team, channel, threadTs] });
        expect(slackThreadLink(threadId)).toBe(
          `https://app.slack.com/client/${team}/${channel}/thread/${channel}-${threadTs}`,
        );
        expect(placeOfScope(slackChannelScope(team, channel))).toBe(workspaceScope(team));
      }),
    );
  });

  it("writes today's ids byte for byte as before", () => {
    const slackId = fc.stringMatching(/^[TCDGE][A-Z0-9]{8,10}$/);
    const ts = fc.stringMatching(/^\d{10}\.\d{6}$/);
    fc.assert(
      fc.property(slackId, slackId, ts, (team, channel, threadTs) => {
        const threadId = slackThreadId(team, channel, threadTs);
        expect(threadId).toBe(`slack:${team}:${channel}:${threadTs}`);
        expect(slackThreadLink(threadId)).toBe(
          `https://app.slack.com/client/${team}/${channel}/thread/${channel}-${threadTs}`,
        );
        expect(workspaceScope(team)).toBe(`slack:${team}`);
        expect(scopesOfSets(slackPlaces.sets(placeAt(team, 'D0123ABCD')))).toEqual([
          `slack:${team}`,
          'shared',
        ]);
        expect(slackChannelScope(team, channel)).toBe(`slack:${team}:${channel}`);
      }),
    );
    expect(slackPlaces.sets(placeAt('T0123ABCD', 'C0123ABCD'))).toEqual({
      channel: 'slack:T0123ABCD:C0123ABCD',
      place: 'slack:T0123ABCD',
      placeName: 'workspace',
    });
  });

  it('gives no link for another platform or a thread id with a missing part', () => {
    expect(slackThreadLink('discord:1:2')).toBeUndefined();
    expect(slackThreadLink('slack:T1:C1')).toBeUndefined();
    expect(slackThreadLink('slack:T1::1.0')).toBeUndefined();
  });
});

describe('Discord ids through the codec', () => {
  it('keeps a guild and thread holding ":" whole, from thread id to link and from channel to server', () => {
    const place = placeInGuild('g:1', 'th:2%', 'ch:3');
    expect(place.threadId).toBe('discord:g%3A1:th%3A2%25');
    expect(discordThreadLink(place.threadId)).toBe('https://discord.com/channels/g:1/th:2%');
    expect(platformOfThread(place.threadId)?.name).toBe('discord');
    expect(place.scopes).toEqual([discordChannelScope('g:1', 'ch:3'), guildScope('g:1'), 'shared']);
    expect(decodeScope(discordChannelScope('g:1', 'ch:3'))).toEqual({
      kind: 'channel',
      platform: 'discord',
      place: 'g:1',
      channel: 'ch:3',
    });
    expect(placeOfScope(discordChannelScope('g:1', 'ch:3'))).toBe(guildScope('g:1'));
    expect(threadIdOf({ id: 'th:2%', guildId: 'g:1' })).toBe(place.threadId);

    const direct = placeInDirectMessages('dm:9');
    expect(direct.threadId).toBe('discord:dm:dm%3A9');
    expect(discordThreadLink(direct.threadId)).toBe('https://discord.com/channels/@me/dm:9');
    expect(threadIdOf({ id: 'dm:9', guildId: null })).toBe(direct.threadId);
  });

  it('round-trips any guild and thread', () => {
    fc.assert(
      fc.property(tricky, tricky, tricky, (guild, thread, channel) => {
        const { threadId } = placeInGuild(guild, thread, channel);
        expect(decodeId(threadId)).toEqual({ platform: 'discord', parts: [guild, thread] });
        expect(discordThreadLink(threadId)).toBe(`https://discord.com/channels/${guild}/${thread}`);
        expect(placeOfScope(discordChannelScope(guild, channel))).toBe(guildScope(guild));
      }),
    );
  });

  it("writes today's ids byte for byte as before", () => {
    const snowflake = fc.stringMatching(/^\d{17,19}$/);
    fc.assert(
      fc.property(snowflake, snowflake, snowflake, (guild, thread, channel) => {
        const place = placeInGuild(guild, thread, channel);
        expect(place.threadId).toBe(`discord:${guild}:${thread}`);
        expect(place.scopes).toEqual([`discord:${guild}:${channel}`, `discord:${guild}`, 'shared']);
        expect(threadIdOf({ id: thread, guildId: guild })).toBe(`discord:${guild}:${thread}`);
        expect(threadIdOf({ id: thread, guildId: null })).toBe(`discord:dm:${thread}`);
        expect(placeInDirectMessages(thread)).toEqual({
          threadId: `discord:dm:${thread}`,
          scopes: ['shared'],
        });
        expect(discordThreadLink(place.threadId)).toBe(`https://discord.com/channels/${guild}/${thread}`);
        expect(discordThreadLink(`discord:dm:${thread}`)).toBe(`https://discord.com/channels/@me/${thread}`);
      }),
    );
  });

  it('links to a message of a server as sources did before, and knows such a link from any other', () => {
    const snowflake = fc.stringMatching(/^\d{17,19}$/);
    fc.assert(
      fc.property(snowflake, snowflake, snowflake, (guild, channel, message) => {
        const link = discordMessageLink(guild, channel, message);
        expect(link).toBe(`https://discord.com/channels/${guild}/${channel}/${message}`);
        expect(isDiscordMessageLink(link)).toBe(true);
        // A thread's link, or one with anything after the message, is not a message's.
        expect(isDiscordMessageLink(`https://discord.com/channels/${guild}/${channel}`)).toBe(false);
        expect(isDiscordMessageLink(`${link})`)).toBe(false);
      }),
    );
  });

  it('gives no link for another platform or a thread id with a missing or extra part', () => {
    expect(discordThreadLink('slack:T1:C1:1.0')).toBeUndefined();
    expect(discordThreadLink('discord:1')).toBeUndefined();
    expect(discordThreadLink('discord:1:')).toBeUndefined();
    expect(discordThreadLink('discord:1:2:3')).toBeUndefined();
  });
});

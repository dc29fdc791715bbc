/**
 * Ids as values (src/core/ids.ts): any platform's ids round-trip, also parts holding `:`, `%` or any
 * unicode, and every id today's Slack and Discord code wrote decodes to the parts it was made of.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  channelScope,
  decodeId,
  decodeScope,
  encodeId,
  encodeScope,
  placeOfScope,
  placeScope,
  threadParts,
} from '../../src/core/ids.ts';

/** Parts made mostly of the characters an escape is made of, so `%3A`, `%25`, `%%`… all come up. */
const tricky = fc.string({ unit: fc.constantFrom(':', '%', '2', '5', '3', 'A', 'a', 'x', 'é', '😀') });
const anyPart = fc.oneof(tricky, fc.string({ unit: 'binary' }), fc.string());
const somePart = anyPart.filter((part) => part.length > 0);

describe('ids as values', () => {
  it('round-trips any platform and parts', () => {
    fc.assert(
      fc.property(anyPart, fc.array(anyPart, { maxLength: 6 }), (platform, parts) => {
        expect(decodeId(encodeId(platform, parts))).toEqual({ platform, parts });
      }),
      { numRuns: 2_000 },
    );
  });

  it('keeps parts apart: a part holding ":" never becomes two parts', () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 4 }), (parts) => {
        expect(encodeId('teams', parts).split(':')).toHaveLength(parts.length + 1);
      }),
    );
    expect(encodeId('matrix', ['!room:example.org', '$event:example.org'])).toBe(
      'matrix:!room%3Aexample.org:$event%3Aexample.org',
    );
    expect(encodeId('teams', ['19:abc@thread.tacv2', '100%'])).toBe('teams:19%3Aabc@thread.tacv2:100%25');
  });

  it('reads every id without a "%" exactly as splitting it at ":" did (ids written before the codec)', () => {
    const unescaped = fc.string().filter((id) => !id.includes('%'));
    fc.assert(
      fc.property(unescaped, (id) => {
        const [platform, ...parts] = id.split(':');
        expect(decodeId(id)).toEqual({ platform, parts });
      }),
      { numRuns: 2_000 },
    );
  });

  it("writes today's Slack and Discord ids unchanged", () => {
    const slackId = fc.stringMatching(/^[TCDGE][A-Z0-9]{8,10}$/);
    const ts = fc.stringMatching(/^\d{10}\.\d{6}$/);
    const snowflake = fc.stringMatching(/^\d{17,19}$/);
    fc.assert(
      fc.property(slackId, slackId, ts, snowflake, snowflake, (team, channel, threadTs, guild, thread) => {
        expect(encodeId('slack', [team, channel, threadTs])).toBe(`slack:${team}:${channel}:${threadTs}`);
        expect(placeScope('slack', team)).toBe(`slack:${team}`);
        expect(channelScope('slack', team, channel)).toBe(`slack:${team}:${channel}`);
        expect(encodeId('discord', [guild, thread])).toBe(`discord:${guild}:${thread}`);
        expect(encodeId('discord', ['dm', thread])).toBe(`discord:dm:${thread}`);
        expect(channelScope('discord', guild, thread)).toBe(`discord:${guild}:${thread}`);
        expect(threadParts(`slack:${team}:${channel}:${threadTs}`, 'slack', 3)).toEqual([
          team,
          channel,
          threadTs,
        ]);
      }),
    );
  });

  it('round-trips scopes, and knows the workspace/server of a channel scope', () => {
    fc.assert(
      fc.property(somePart, somePart, somePart, (platform, place, channel) => {
        const channelValue = { kind: 'channel', platform, place, channel } as const;
        const placeValue = { kind: 'place', platform, place } as const;
        expect(decodeScope(encodeScope(channelValue))).toEqual(channelValue);
        expect(decodeScope(encodeScope(placeValue))).toEqual(placeValue);
        expect(placeOfScope(channelScope(platform, place, channel))).toBe(placeScope(platform, place));
        expect(placeOfScope(placeScope(platform, place))).toBe(placeScope(platform, place));
      }),
      { numRuns: 1_000 },
    );
    expect(decodeScope('shared')).toEqual({ kind: 'shared' });
    expect(encodeScope({ kind: 'shared' })).toBe('shared');
    expect(placeOfScope('shared')).toBeUndefined();
  });

  it('refuses forms no platform writes: empty parts, too many parts, another platform', () => {
    for (const scope of ['slack:', 'slack::C1', 'slack:T1:', ':T1', 'slack:T1:C1:1.0', 'team-a']) {
      expect(decodeScope(scope)).toBeUndefined();
    }
    expect(threadParts('slack:T1:C1:1.0', 'discord', 3)).toBeUndefined();
    expect(threadParts('slack:T1:C1', 'slack', 3)).toBeUndefined();
    expect(threadParts('slack:T1::1.0', 'slack', 3)).toBeUndefined();
  });
});

/**
 * The `source` column's JSON: one source is still written as one object (what earlier versions wrote
 * and read), several as a list; both read back as a list.
 */
import { describe, expect, it } from 'vitest';
import type { VerifiedAnswerSource } from '../../src/core/verified-answers.ts';
import { decodeVerifiedSources, encodeVerifiedSources } from '../../src/stores/verified-answer-sources.ts';

const one: VerifiedAnswerSource = { file: 'a.pdf', pages: [4, 5], documentId: 'sha-a' };
const two: VerifiedAnswerSource = { file: 'b.pdf', pages: [1, 1] };

describe('verified answer sources in a store', () => {
  it('writes one source as the one object earlier versions read, several as a list, none as NULL', () => {
    expect(encodeVerifiedSources([one])).toBe(JSON.stringify(one));
    expect(encodeVerifiedSources([one, two])).toBe(JSON.stringify([one, two]));
    expect(encodeVerifiedSources([])).toBeNull();
  });

  it('reads an object as a one-source list, a list as it is, NULL as none', () => {
    expect(decodeVerifiedSources(one)).toEqual([one]);
    expect(decodeVerifiedSources([one, two])).toEqual([one, two]);
    expect(decodeVerifiedSources(null)).toEqual([]);
  });
});

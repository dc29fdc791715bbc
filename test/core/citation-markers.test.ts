import { describe, expect, it } from 'vitest';
import { citesByNumber, citesWithin } from '../../src/core/citation-markers.ts';

describe('citation markers', () => {
  it('tells a text that cites by number, however often it is asked', () => {
    const cited = 'Pipes connect commands [1][2]. See [3, 4].';
    // The shared pattern is global: asking twice in a row must not start where the first match ended.
    expect([citesByNumber(cited), citesByNumber(cited), citesByNumber('Use a loop [1].')]).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('does not take links, footnotes or indexes in code for citations', () => {
    for (const text of ['see [1](https://example.com)', 'a footnote[^1]', 'list[2] and items[3]', 'none'])
      expect(citesByNumber(text)).toBe(false);
  });

  it('says whether every cited number is one of the sources', () => {
    expect(citesWithin('A [1] and B [2].', 2)).toBe(true);
    expect(citesWithin('A [1] and B [3].', 2)).toBe(false);
    expect(citesWithin('no numbers', 2)).toBe(false);
  });
});

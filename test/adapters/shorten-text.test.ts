import { describe, expect, it } from 'vitest';
import { prefixWithin, shortenText } from '../../src/replies/shorten-text.ts';

const isWellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('shortenText', () => {
  it('never cuts a surrogate pair or a grapheme in half', () => {
    const text = `${'a'.repeat(98)}😀😀`; // the emoji starts at code unit 98
    const short = shortenText(text, 100);
    expect(short.length).toBeLessThanOrEqual(100);
    expect(isWellFormed(short)).toBe(true);
    expect(short).toBe(`${'a'.repeat(98)}…`);
    const flags = '🇫🇷🇩🇪🇯🇵';
    expect(prefixWithin(flags, 5)).toBe('🇫🇷');
    expect(prefixWithin('e\u0301e\u0301', 3)).toBe('e\u0301');
  });

  it('returns text that fits unchanged and respects the limit otherwise', () => {
    expect(shortenText('short', 10)).toBe('short');
    for (let limit = 1; limit < 12; limit++) {
      const short = shortenText('👍 thumbs up 👍', limit);
      expect(short.length).toBeLessThanOrEqual(limit);
      expect(isWellFormed(short)).toBe(true);
    }
  });
});

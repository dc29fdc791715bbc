/**
 * Cuts text for a platform field with a length limit (a thread name, a status line, a section) without
 * splitting a character: the cut falls between grapheme clusters, so an emoji, a flag or a letter with
 * its accent is kept whole or dropped whole, never sent half (a lone surrogate is invalid UTF-16 and
 * platforms refuse or garble it). Lengths are counted in UTF-16 code units, as Slack and Discord count.
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The longest prefix of `text` of at most `maxLength` code units that ends on a grapheme boundary. */
export function prefixWithin(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let end = 0;
  for (const { index, segment } of segmenter.segment(text)) {
    if (index + segment.length > maxLength) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/** `text` itself when it fits, else a prefix that ends with `…`, at most `maxLength` code units in all. */
export function shortenText(text: string, maxLength: number, ellipsis = '…'): string {
  if (text.length <= maxLength) return text;
  return `${prefixWithin(text, Math.max(0, maxLength - ellipsis.length)).trimEnd()}${ellipsis}`;
}

/**
 * Numbered citation markers in an answer's text (`graph/citations.ts` renumbers them; [1] is the
 * answer's first source).
 */

/**
 * `[3]`, `[3, 5]`, `[3][5]`; not a Markdown link `[3](…)`, a footnote `[^3]` or an index in code
 * (`a[1]`, `${list[2]}`: a word character before it).
 */
export const citationMarker = /[ \t]?(?<![\w$])\[(\d{1,3}(?:[ \t]*[,;][ \t]*\d{1,3})*)\](?!\()/g;

/**
 * Whether the text cites by number and every number it cites is one of `sourceCount` sources ([1] the
 * first): then its numbers still point at those sources, as for a verified answer that kept them all.
 */
export function citesWithin(text: string, sourceCount: number): boolean {
  const numbers = [...text.matchAll(citationMarker)].flatMap((match) =>
    (match[1] ?? '').split(/[,;]/).map((part) => Number(part.trim())),
  );
  return numbers.length > 0 && numbers.every((number) => number >= 1 && number <= sourceCount);
}

/** Whether the text has a citation marker (`[1]`, `[2, 3]`): it cites its sources by number. */
export function citesByNumber(text: string): boolean {
  // `search` starts at the beginning whatever the global pattern's last position was.
  return text.search(citationMarker) >= 0;
}

/**
 * Finds the PDF outline's entries among the page lines. The outline (bookmarks) is the author's own
 * table of contents, so its titles are the document's headings whatever their font: titles with
 * hyphens or slashes, numbered titles, one- or two-letter names. Entries are matched in order: each
 * is looked for after the line the previous one matched, as
 * - a line equal to the title (section numbers such as "9.2" or "Chapter 4" ignored on both sides),
 * - a few consecutive lines that together make the title (a title that wraps), or
 * - a line that starts with the title, word for word and case for case, followed by a capitalised
 *   subtitle (a reference manual's "crimtab   Student's 3000 Criminals Data" for the entry
 *   "crimtab"), or set larger than the body.
 * Table-of-contents lines ("… 805", "Introduction 12") never match. The level is the entry's depth
 * (deeper than 3 counts as 3).
 */

import type { PageLine, PageText } from './page-lines.ts';
import type { OutlineEntry } from './read-outline.ts';

export interface OutlineHeadingLine {
  level: number;
  /** The first line of its heading (false: a continuation line of a title that wraps). */
  first: boolean;
}

export interface OutlineHeadings {
  lines: Map<PageLine, OutlineHeadingLine>;
  /** Entries found / entries in the outline. */
  matched: number;
  total: number;
  /** The deepest level an outline heading was given (1–3). */
  deepestLevel: number;
}

/** "Chapter 4", "Appendix B", "9.2", "A.1", "IV." before a title (not a word such as "How"). */
const sectionNumber =
  /^(?:(?:[Cc]hapter|CHAPTER|[Pp]art|PART|[Aa]ppendix|APPENDIX|[Ss]ection)\s+[\dA-Z]{1,3}\.?|\d{1,3}(?:\.\d{1,3})*\.?|[A-Z](?:\.\d{1,3})+\.?|[IVXLC]{1,6}\.)\s+(?=\S)/;
/** An outline's top-level "B Invoking R" for the page's "Appendix B Invoking R". */
const appendixLetter = /^[A-Z]\s+(?=\p{Lu})/u;

/**
 * Lowercase letters and digits, single spaces, no section number. A hyphen inside a word joins its halves
 * (an outline's "Nonregular files" is the page's "Non-regular files"; soft hyphens go too).
 */
export function headingKey(text: string): string {
  return text
    .normalize('NFKC')
    .replace(sectionNumber, '')
    .toLowerCase()
    .replace(/(?<=\p{L})[-\u00AD\u2010\u2011](?=\p{L})/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The key of an outline title (a top-level one may start with its appendix letter). */
export function titleKey(entry: OutlineEntry): string {
  return headingKey(entry.depth === 1 ? entry.title.replace(appendixLetter, '') : entry.title);
}

const tableOfContentsLine = (text: string) => text.includes('…') || /\s\d{1,5}$/.test(text);
const maxLinesPerTitle = 4;
const maxCandidatesPerEntry = 5_000;

export function matchOutline(
  pages: readonly PageText[],
  outline: readonly OutlineEntry[],
  skip: ReadonlySet<PageLine>,
  bodySize: number,
): OutlineHeadings {
  const lines: PageLine[] = [];
  const keys: string[] = [];
  const byFirstWord = new Map<string, number[]>();
  for (const page of pages) {
    for (const line of page.lines) {
      if (skip.has(line) || line.text.length > 300) continue;
      const key = headingKey(line.text);
      if (!key) continue;
      const firstWord = firstWordOf(key);
      const list = byFirstWord.get(firstWord) ?? [];
      byFirstWord.set(firstWord, list);
      list.push(lines.length);
      lines.push(line);
      keys.push(key);
    }
  }
  const found = new Map<PageLine, OutlineHeadingLine>();
  let cursor = 0;
  let matched = 0;
  let deepestLevel = 0;
  for (const entry of outline) {
    const title = titleKey(entry);
    if (!title) continue;
    const candidates = byFirstWord.get(firstWordOf(title));
    if (!candidates) continue;
    let at = lowerBound(candidates, cursor);
    const end = Math.min(candidates.length, at + maxCandidatesPerEntry);
    for (; at < end; at++) {
      const position = candidates[at] as number;
      const span = matchAt(position, title, entry.title);
      if (span === 0) continue;
      const level = Math.min(3, Math.max(1, entry.depth));
      for (let offset = 0; offset < span; offset++) {
        found.set(lines[position + offset] as PageLine, { level, first: offset === 0 });
      }
      deepestLevel = Math.max(deepestLevel, level);
      matched++;
      cursor = position + span;
      break;
    }
  }
  return { lines: found, matched, total: outline.length, deepestLevel };

  /** How many lines from `position` make the title (0: no match). */
  function matchAt(position: number, title: string, rawTitle: string): number {
    const line = lines[position] as PageLine;
    const key = keys[position] as string;
    if (found.has(line) || tableOfContentsLine(line.text)) return 0;
    if (key === title) return 1;
    if (key.startsWith(`${title} `)) {
      return line.size > bodySize + 0.5 || startsWithTitle(line.text, rawTitle) ? 1 : 0;
    }
    let joined = key;
    let previous = line;
    for (let span = 1; span < maxLinesPerTitle && title.startsWith(`${joined} `); span++) {
      const next = lines[position + span];
      const nextKey = keys[position + span];
      if (!next || nextKey === undefined || Math.abs(next.size - line.size) > 0.5 || next.y >= previous.y)
        return 0;
      joined = `${joined} ${nextKey}`;
      if (joined === title) return span + 1;
      previous = next;
    }
    return 0;
  }
}

/** "crimtab Student's 3000 Criminals Data" starts with the title "crimtab", then a subtitle. */
function startsWithTitle(text: string, title: string): boolean {
  const body = text.replace(sectionNumber, '');
  return body.startsWith(title) && /^\s+(?:\|\s+)?\p{Lu}/u.test(body.slice(title.length));
}

function firstWordOf(key: string): string {
  const space = key.indexOf(' ');
  return space < 0 ? key : key.slice(0, space);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

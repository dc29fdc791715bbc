/**
 * Finds running headers, footers and page numbers: the top-most and bottom-most lines of a page that
 * repeat across pages (digits ignored), are a bare page number, or carry a number that follows the
 * page count at a constant offset ("mcparallel   1379" on page 1410, "12   Bash Reference Manual").
 * Lines that are all the text left on their page are kept (bare page numbers aside): a page's only
 * text is content, however often lines like it repeat (a slide deck, a form, one line per page).
 */
import type { PageLine, PageText } from './page-lines.ts';

const barePageNumber =
  /^(?:page\s*)?[-–—(]?\s*(?:\d{1,5}|[ivxlcdm]{1,7})\s*[-–—)]?(?:\s*(?:of|\/)\s*\d{1,5})?$/i;

const normalized = (text: string) => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

function edgeNumber(text: string): number[] {
  const numbers: number[] = [];
  const leading = /^(\d{1,5})\b/.exec(text);
  const trailing = /\b(\d{1,5})$/.exec(text);
  if (leading?.[1]) numbers.push(Number(leading[1]));
  if (trailing?.[1]) numbers.push(Number(trailing[1]));
  return numbers;
}

/** The top-most and bottom-most lines still on a page, and how many lines are still on it. */
function edges(
  lines: readonly PageLine[],
  removed: ReadonlySet<PageLine>,
): { lines: PageLine[]; remaining: number } {
  let top: PageLine | undefined;
  let bottom: PageLine | undefined;
  let remaining = 0;
  for (const line of lines) {
    if (removed.has(line)) continue;
    remaining++;
    if (!top || line.y > top.y) top = line;
    if (!bottom || line.y < bottom.y) bottom = line;
  }
  if (!top || !bottom) return { lines: [], remaining };
  return { lines: top === bottom ? [top] : [top, bottom], remaining };
}

/** Returns the lines to drop, over all pages. */
export function findPageFurniture(pages: readonly PageText[]): Set<PageLine> {
  const removed = new Set<PageLine>();
  if (pages.length === 0) return removed;
  const minimumRepeats = Math.max(3, Math.ceil(pages.length * 0.1));
  const bodySize = commonSize(pages);
  for (let round = 0; round < 2; round++) {
    const candidates = pages.map((page) => ({ page: page.page, ...edges(page.lines, removed) }));
    const textCounts = new Map<string, number>();
    const offsetCounts = new Map<number, number>();
    for (const { page, lines } of candidates) {
      const seenOffsets = new Set<number>();
      for (const line of lines) {
        const key = normalized(line.text);
        textCounts.set(key, (textCounts.get(key) ?? 0) + 1);
        for (const number of edgeNumber(line.text)) seenOffsets.add(page - number);
      }
      for (const offset of seenOffsets) offsetCounts.set(offset, (offsetCounts.get(offset) ?? 0) + 1);
    }
    const pageOffsets = new Set<number>();
    for (const [offset, count] of offsetCounts) {
      if (count >= Math.max(3, Math.ceil(pages.length * 0.2))) pageOffsets.add(offset);
    }
    let found = 0;
    for (const { page, lines, remaining } of candidates) {
      const pageNumbers = lines.filter((line) => barePageNumber.test(line.text));
      const repeated = lines.filter(
        (line) =>
          !barePageNumber.test(line.text) &&
          ((round === 0 && (textCounts.get(normalized(line.text)) ?? 0) >= minimumRepeats) ||
            (line.text.length <= 120 &&
              line.size <= bodySize * 1.15 &&
              edgeNumber(line.text).some((number) => pageOffsets.has(page - number)))),
      );
      // Never empty a page of its real text: what would be left if all of it went is kept.
      const furniture =
        pageNumbers.length + repeated.length >= remaining ? pageNumbers : [...pageNumbers, ...repeated];
      for (const line of furniture) {
        removed.add(line);
        found++;
      }
    }
    if (found === 0) break;
  }
  return removed;
}

/** The font size most lines use (a chapter title, large, is not a running header). */
function commonSize(pages: readonly PageText[]): number {
  const counts = new Map<number, number>();
  for (const page of pages)
    for (const line of page.lines) counts.set(line.size, (counts.get(line.size) ?? 0) + 1);
  let best = 0;
  let bestCount = -1;
  for (const [size, count] of counts) {
    if (count > bestCount) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}

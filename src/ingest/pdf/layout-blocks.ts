/**
 * Rebuilds the structure of a document from its page lines: headings from the PDF's outline when it
 * has one (outline-headings.ts), else from font size and weight (relative to the body text);
 * paragraphs reflowed from lines (hyphenated breaks joined), list items, monospaced code blocks;
 * running headers, footers and page numbers dropped.
 * With an outline, a font-styled heading that is not in it is kept only one level below the deepest
 * outline level (a reference manual's "Description", "Usage" under each outlined topic), and only
 * while that level is free (below 3); otherwise it is text.
 */
import type { TextBlock } from '../text-block.ts';
import { matchOutline } from './outline-headings.ts';
import { findPageFurniture } from './page-furniture.ts';
import type { FontKey, FontUsage, PageLine, PageText } from './page-lines.ts';
import type { OutlineEntry } from './read-outline.ts';

interface DocumentStyle {
  bodySize: number;
  bodyFont: FontKey;
  /** Usual distance between two body lines of a paragraph. */
  leading: number;
  fonts: Map<FontKey, FontUsage>;
  totalChars: number;
  /** Sizes of the heading styles that occur often enough to rank, largest first. */
  headingSizes: number[];
  /** Level of each ranked heading style (`size|font`). */
  headingLevels: Map<string, number>;
  /** Whether the ranked styles are those used at least three times (documents with many headings). */
  rankedByFrequency: boolean;
}

const listMarker = /^(?:[•◦▪‣∙·●○■□➢►–—*-]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+/;
const keptHyphenPrefixes = new Set([
  'non',
  'self',
  'well',
  'multi',
  'semi',
  'anti',
  'cross',
  'built',
  'user',
]);

/** An outline counts when most of its entries are found among the lines. */
const minimumOutlineShare = 0.5;

export function layoutBlocks(pages: readonly PageText[], outline: readonly OutlineEntry[] = []): TextBlock[] {
  const furniture = findPageFurniture(pages);
  const style = documentStyle(pages, furniture);
  const outlined = outline.length > 0 ? matchOutline(pages, outline, furniture, style.bodySize) : undefined;
  const outlineHeadings =
    outlined &&
    outlined.matched >= Math.min(3, outlined.total) &&
    outlined.matched >= outlined.total * minimumOutlineShare
      ? outlined
      : undefined;
  const vocabulary = documentWords(pages, furniture);
  const join = (paragraph: string, line: string) => joinLine(paragraph, line, vocabulary);
  const blocks: TextBlock[] = [];
  let open: { block: TextBlock; first: PageLine; last: PageLine; codeLines?: PageLine[] } | undefined;
  // The leftmost x of the current section's text so far (right after its heading: an em past the
  // heading), and the last definition term.
  let sectionLeft = Number.POSITIVE_INFINITY;
  let lastTerm: PageLine | undefined;

  const close = () => {
    if (open?.codeLines) open.block.text = codeText(open.codeLines, style);
    if (open?.block.text.trim()) blocks.push(open.block);
    open = undefined;
  };

  for (const page of pages) {
    let previous: PageLine | undefined;
    for (const [index, line] of page.lines.entries()) {
      if (furniture.has(line)) continue;
      const text = cleanText(line.text);
      if (!text) continue;
      const outlineLine = outlineHeadings?.lines.get(line);
      if (outlineLine) {
        if (!outlineLine.first && open?.block.kind === 'heading' && previous === open.last) {
          open.block.text = join(open.block.text, text);
          open.block.pageEnd = page.page;
          open.last = line;
        } else {
          close();
          open = {
            block: {
              kind: 'heading',
              level: outlineLine.level,
              text,
              pageStart: page.page,
              pageEnd: page.page,
            },
            first: line,
            last: line,
          };
        }
        sectionLeft = line.x + line.size;
        previous = line;
        continue;
      }
      let level = headingLevel(line, text, style, page.page);
      // A definition list's term on its own line starts an item, not a section: it stands within the
      // section's text (a man page's headings stand out to its left).
      const term =
        level !== undefined && line.x >= sectionLeft - 2 && isDefinitionTerm(page, index, furniture, style);
      if (term) level = undefined;
      if (level !== undefined && outlineHeadings) level = outlineHeadings.deepestLevel < 3 ? 3 : undefined;
      if (level !== undefined) {
        const heading = open?.block.kind === 'heading' && open.block.pageEnd === page.page ? open : undefined;
        const continuesHeading =
          heading &&
          previous === heading.last &&
          ((heading.block.level === level &&
            Math.abs(heading.last.size - line.size) < 0.5 &&
            heading.last.y - line.y > 0 &&
            heading.last.y - line.y < 1.6 * line.size) ||
            continuesNumberedHeading(heading.last, heading.block.text, line));
        if (heading && continuesHeading) {
          heading.block.text = join(heading.block.text, text);
          heading.last = line;
        } else {
          close();
          open = {
            block: { kind: 'heading', level, text, pageStart: page.page, pageEnd: page.page },
            first: line,
            last: line,
          };
        }
        sectionLeft = line.x + line.size;
        previous = line;
        continue;
      }
      sectionLeft = Math.min(sectionLeft, line.x);
      // The lines of one term (a synopsis in several forms) stay one paragraph; a new term starts one.
      const termRunsOn = term && lastTerm !== undefined && previous === lastTerm;
      lastTerm = term ? line : undefined;
      // A monospaced line aligned with the paragraph it follows, without a gap, is part of it
      // (an identifier that fills a line), not a code block.
      const inlineCode =
        open !== undefined &&
        Math.abs(line.x - open.last.x) <= 2 &&
        continuesText(open.block, open.first, open.last, previous, line, text, page.page, style);
      if (line.mono >= 0.8 && !inlineCode) {
        if (open?.codeLines && (open.block.pageEnd === page.page || open.block.pageEnd === page.page - 1)) {
          open.codeLines.push(line);
          open.block.pageEnd = page.page;
          open.last = line;
        } else {
          close();
          open = {
            block: { kind: 'code', text: '', pageStart: page.page, pageEnd: page.page },
            first: line,
            last: line,
            codeLines: [line],
          };
        }
        previous = line;
        continue;
      }
      const isListItem = listMarker.test(text);
      const continues =
        open &&
        !isListItem &&
        (!term || termRunsOn) &&
        // A line left of a list item's start ends the item.
        !(open.block.kind === 'list' && line.x < open.first.x - 2) &&
        continuesText(open.block, open.first, open.last, previous, line, text, page.page, style);
      if (open && continues) {
        open.block.text = join(open.block.text, text);
        open.block.pageEnd = page.page;
        open.last = line;
      } else {
        close();
        const kind = isListItem ? 'list' : 'paragraph';
        const body = isListItem ? listText(text) : text;
        open = {
          block: { kind, text: body, pageStart: page.page, pageEnd: page.page },
          first: line,
          last: line,
        };
      }
      previous = line;
    }
  }
  close();
  return blocks;
}

function continuesText(
  block: TextBlock,
  first: PageLine,
  last: PageLine,
  previous: PageLine | undefined,
  line: PageLine,
  text: string,
  page: number,
  style: DocumentStyle,
): boolean {
  if (block.kind !== 'paragraph' && block.kind !== 'list') return false;
  if (previous === undefined) {
    // First line of a page: a paragraph cut by the page break goes on.
    return block.pageEnd === page - 1 && !/[.!?:]["')\]]?$/.test(block.text) && /^[a-z0-9(]/.test(text);
  }
  if (previous !== last) return false;
  const gap = last.y - line.y;
  if (gap <= 0 || gap > Math.max(style.leading, line.size * 1.05) * 1.3) return false;
  if (Math.abs(line.size - last.size) > 1) return false;
  const indent = line.x - last.x;
  // A first-line indent starts a new paragraph (a hanging indent, as in a definition list, does not).
  if (block.kind === 'paragraph' && indent >= 0.8 * line.size && indent <= 3 * line.size) return false;
  // Back out of a hanging indent: the next item of a definition list.
  if (first !== last && indent <= -0.8 * line.size && line.x <= first.x + 2) return false;
  return true;
}

/** The style (`size|font`) of a line that reads as a heading, or undefined. */
function headingStyle(line: PageLine, text: string, style: DocumentStyle): string | undefined {
  if (line.mono >= 0.8 || line.uniform < 0.85) return undefined;
  // Words, not a formula: at least one plain word of three letters, and no math operator.
  if (text.length < 2 || text.length > 150) return undefined;
  if (!/(?:^|\s)\p{L}{3,}(?=$|\s|[:,.!?])/u.test(text) || /[=<>≤≥−×÷∑∏√∫^]/.test(text)) return undefined;
  // A table-of-contents entry ("4 The grDevices package 805") is not a heading.
  if (/\s\d{1,5}$/.test(text) && text.split(' ').length >= 3) return undefined;
  if (/[,;]$/.test(text) || (/\.$/.test(text) && !/^[\d.]+\s/.test(text) && text.split(' ').length > 1)) {
    return undefined;
  }
  if (text.includes(' … ')) return undefined;
  const size = Math.round(line.size * 2) / 2;
  if (line.size >= style.bodySize * 1.15) return `${size}|${line.font}`;
  // About the body size: a heading only in a bold font, and only if it reads like one.
  if (line.size < style.bodySize - 0.6 || line.font === style.bodyFont) return undefined;
  if (!isBoldFont(line.font, style)) return undefined;
  if (text.length > 80 || !/^[\p{L}\d.]/u.test(text)) return undefined;
  return `${size}|${line.font}`;
}

function headingLevel(line: PageLine, text: string, style: DocumentStyle, page: number): number | undefined {
  const key = headingStyle(line, text, style);
  if (key === undefined) return undefined;
  const ranked = style.headingLevels.get(key);
  if (ranked !== undefined) return ranked;
  // In a document with a heading scheme, a one-off style past the title pages is noise (a display
  // formula, a decorated word), not a heading that should reset the section path.
  if (style.rankedByFrequency && page > 2) return undefined;
  const size = Number(key.slice(0, key.indexOf('|')));
  return Math.min(3, 1 + style.headingSizes.filter((other) => other > size + 0.25).length);
}

/**
 * Bold fonts are rare and proportional. A font whose object says it is bold (`:w700` in its key, see
 * font-weights.ts) is; otherwise a bold font is at least as wide as the body font (italics are narrower).
 */
function isBoldFont(font: FontKey, style: DocumentStyle): boolean {
  const usage = style.fonts.get(font);
  const body = style.fonts.get(style.bodyFont);
  if (!usage || !body || usage.monospace || usage.chars === 0 || body.chars === 0) return false;
  if (usage.chars > style.totalChars * 0.1) return false;
  if (font.endsWith(':w700')) return true;
  return usage.ems / usage.chars >= (body.ems / body.chars) * 0.99;
}

function documentStyle(pages: readonly PageText[], furniture: ReadonlySet<PageLine>): DocumentStyle {
  const fonts = new Map<FontKey, FontUsage>();
  const sizeChars = new Map<number, number>();
  const leadings = new Map<number, number>();
  let totalChars = 0;
  for (const page of pages) {
    for (const [key, usage] of Object.entries(page.fonts)) {
      const known = fonts.get(key);
      if (known) {
        known.chars += usage.chars;
        known.ems += usage.ems;
      } else fonts.set(key, { ...usage });
      totalChars += usage.chars;
    }
    let previous: PageLine | undefined;
    for (const line of page.lines) {
      if (furniture.has(line)) continue;
      // The body is prose: code listings (however long) do not set the body size.
      if (line.mono < 0.5) sizeChars.set(line.size, (sizeChars.get(line.size) ?? 0) + line.text.length);
      if (previous && previous.size === line.size) {
        const gap = Math.round((previous.y - line.y) * 2) / 2;
        if (gap > 0 && gap < line.size * 3) leadings.set(gap, (leadings.get(gap) ?? 0) + 1);
      }
      previous = line;
    }
  }
  const bodySize = mostCommon(sizeChars) ?? 10;
  const proportional = [...fonts].filter(([, usage]) => !usage.monospace);
  const bodyFont = mostCommon(new Map(proportional.map(([key, usage]) => [key, usage.chars]))) ?? '';
  const leading = mostCommon(leadings) ?? bodySize * 1.2;
  const style: DocumentStyle = {
    bodySize,
    bodyFont,
    leading,
    fonts,
    totalChars,
    headingSizes: [],
    headingLevels: new Map(),
    rankedByFrequency: false,
  };
  // Levels: larger first; at the same size the rarer style ranks higher (a chapter title is rarer
  // than the "Description" of every topic). One-off styles (a title page) do not take a level.
  const styleCounts = new Map<string, { count: number; pages: number; lastPage: number }>();
  let headingLines = 0;
  for (const page of pages) {
    let previous: { line: PageLine; text: string } | undefined;
    for (const line of page.lines) {
      if (furniture.has(line)) continue;
      const text = cleanText(line.text);
      const key = headingStyle(line, text, style);
      const continued = previous && continuesNumberedHeading(previous.line, previous.text, line);
      previous = key === undefined ? undefined : { line, text };
      if (key === undefined || continued) continue;
      const counts = styleCounts.get(key) ?? { count: 0, pages: 0, lastPage: 0 };
      counts.count++;
      if (counts.lastPage !== page.page) counts.pages++;
      counts.lastPage = page.page;
      styleCounts.set(key, counts);
      headingLines++;
    }
  }
  const frequent = headingLines < 20 ? 1 : 3;
  style.rankedByFrequency = frequent > 1;
  const ranked = [...styleCounts]
    .filter(([, { count, pages }]) => count >= frequent && (frequent === 1 || pages > 1))
    .map(([key, { count }]) => ({ key, count, size: Number(key.slice(0, key.indexOf('|'))) }))
    .sort((a, b) => b.size - a.size || a.count - b.count);
  // With more styles than levels, the top ones share level 1: the finest distinctions (topic,
  // then its "Description") matter more to a section path than title versus chapter.
  ranked.forEach(({ key }, index) => {
    const level = ranked.length <= 3 ? index + 1 : Math.max(1, 3 - (ranked.length - 1 - index));
    style.headingLevels.set(key, level);
  });
  style.headingSizes = ranked.map(({ size }) => size);
  return style;
}

/**
 * Whether the line at `index` is the term of a definition list set on its own line(s) rather than a
 * heading, however bold: a man page's `.TP` item whose term is too long for the hanging indent (its
 * siblings keep term and description on one line), or a builtin's synopsis lines. The term may run on
 * over lines of its own font at its own x; the description then starts close below, indented three ems
 * or more past it, in another font. A heading's text starts at most a first-line indent past it. (The caller also checks
 * that the line is not left of the section's text: a man page's headings stand out to the left.)
 */
function isDefinitionTerm(
  page: PageText,
  index: number,
  furniture: ReadonlySet<PageLine>,
  style: DocumentStyle,
): boolean {
  const line = page.lines[index];
  if (!line || line.size >= style.bodySize * 1.15) return false;
  const closeBelow = (upper: PageLine, lower: PageLine) => {
    const gap = upper.y - lower.y;
    return gap > 0 && gap <= Math.max(style.leading, upper.size * 1.05) * 1.3;
  };
  let last = line;
  for (let next = index + 1, runOn = 0; next < page.lines.length && runOn <= maxTermLines; next++) {
    const candidate = page.lines[next];
    if (!candidate || furniture.has(candidate)) continue;
    if (!closeBelow(last, candidate)) return false;
    if (Math.abs(candidate.x - line.x) <= 2 && candidate.font === line.font) {
      last = candidate;
      runOn++;
      continue;
    }
    // The description is in another font (a heading that wraps keeps its own).
    return candidate.x - line.x >= 3 * line.size && candidate.font !== line.font;
  }
  return false;
}

/** At most this many more lines of a term before its description (a builtin's synopsis forms). */
const maxTermLines = 8;

const headingLabel =
  /^(?:chapter|part|appendix|section|book|lecture|unit)\s+[\dA-Z]{1,4}\.?$|^\d{1,3}(?:\.\d{1,3})*\.?$/i;

/** "Chapter 1" on one line and "The base package" under it are one heading. */
function continuesNumberedHeading(previous: PageLine, previousText: string, line: PageLine): boolean {
  const gap = previous.y - line.y;
  return headingLabel.test(previousText) && gap > 0 && gap < 4 * Math.max(previous.size, line.size);
}

function mostCommon<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestCount = -1;
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key;
      bestCount = count;
    }
  }
  return best;
}

/** Spacing accents (TeX sets "´" before the letter: "P´eter") and the combining mark each stands for. */
const combiningMarks: Record<string, string> = {
  '´': '\u0301',
  '¨': '\u0308',
  '˜': '\u0303',
  ˆ: '\u0302',
  '¸': '\u0327',
  ˇ: '\u030C',
  '˘': '\u0306',
  '˙': '\u0307',
  '˚': '\u030A',
  '˝': '\u030B',
  '˛': '\u0328',
  '¯': '\u0304',
};
const spacingAccent = /[´¨˜ˆ¸ˇ˘˙˚˝˛¯]/;
const accentBeforeLetter = /([´¨˜ˆ¸ˇ˘˙˚˝˛¯])(\p{L})/gu;

/** "P´eter Juh´asz" → "Péter Juhász": the mark moved after its letter and composed (when a composed letter exists). */
export function composeAccents(text: string): string {
  if (!spacingAccent.test(text)) return text;
  return text.replace(accentBeforeLetter, (match, accent: string, letter: string) => {
    const composed = `${letter}${combiningMarks[accent] ?? ''}`.normalize('NFC');
    return composed.length === 1 ? composed : match;
  });
}

function cleanText(text: string): string {
  const hyphen = composeAccents(text.endsWith('\u00ad') ? `${text.slice(0, -1)}-` : text);
  return (
    hyphen.includes('. .') || hyphen.includes('.....') ? hyphen.replace(/(?:\s*\.){5,}\s*/g, ' … ') : hyphen
  ).trim();
}

function listText(text: string): string {
  return text.replace(/^[•◦▪‣∙·●○■□➢►–—*]\s+/, '- ').replace(/^-\s+/, '- ');
}

const wordPattern = /\p{L}+/gu;

/**
 * The words of a document, lowercased, as written whole: the piece before a line-end hyphen and the
 * first word of the line after it are left out (they are halves, not words).
 */
function documentWords(pages: readonly PageText[], furniture: ReadonlySet<PageLine>): Set<string> {
  const words = new Set<string>();
  let afterHyphen = false;
  for (const page of pages) {
    for (const line of page.lines) {
      if (furniture.has(line)) continue;
      const text = composeAccents(line.text);
      const found = text.match(wordPattern) ?? [];
      const hyphenated = /\p{L}-$/u.test(text);
      const last = hyphenated ? found.length - 1 : found.length;
      for (let index = afterHyphen ? 1 : 0; index < last; index++)
        words.add((found[index] as string).toLowerCase());
      afterHyphen = hyphenated;
    }
  }
  return words;
}

/**
 * Joins a line onto a paragraph, undoing hyphenation at the line break: the hyphen goes when the
 * joined word is a word of the document (`vocabulary`), stays when both halves are words of their own
 * or the word before it is already a compound ("DBMS-specific", "cut-and-paste",
 * "fonts-crosextra-carlito"), and otherwise goes (a word split by syllable: "configu-ration").
 * Without a vocabulary, only a few prefixes ("non-", "self-", …) keep their hyphen.
 */
export function joinLine(paragraph: string, line: string, vocabulary?: ReadonlySet<string>): string {
  const hyphenated = paragraph.endsWith('-')
    ? /([\p{L}\p{N}]-)?(\p{L}+)-$/u.exec(paragraph.slice(-60))
    : null;
  const next = /^\p{Ll}\p{L}*/u.exec(line)?.[0];
  if (hyphenated && next !== undefined) {
    const left = (hyphenated[2] ?? '').toLowerCase();
    const right = next.toLowerCase();
    const keep = vocabulary
      ? !vocabulary.has(left + right) &&
        (hyphenated[1] !== undefined ||
          keptHyphenPrefixes.has(left) ||
          (vocabulary.has(left) && vocabulary.has(right)))
      : keptHyphenPrefixes.has(left);
    return keep ? paragraph + line : paragraph.slice(0, -1) + line;
  }
  return `${paragraph} ${line}`;
}

/** Code keeps its lines and its indentation (from the x positions, in monospace columns). */
function codeText(lines: readonly PageLine[], style: DocumentStyle): string {
  const left = Math.min(...lines.map((line) => line.x));
  const monoFont = style.fonts.get(lines[0]?.font ?? '');
  const em = monoFont && monoFont.chars > 0 ? monoFont.ems / monoFont.chars : 0.525;
  return lines
    .map((line) => {
      const columns = Math.max(0, Math.round((line.x - left) / (em * line.size)));
      return ' '.repeat(Math.min(columns, 40)) + line.text;
    })
    .join('\n');
}

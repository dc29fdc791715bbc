/**
 * Turns pdf.js text content (positioned runs of text) into the lines of one page, each with the
 * style facts the layout step needs: font size, font identity, monospace share, position.
 * Runs in the extraction workers, so it must stay free of anything but plain data.
 */

/** A font's identity that is the same in every worker (pdf.js's own font ids are per process). */
export type FontKey = string;

export interface PageLine {
  text: string;
  /** Left edge and baseline in PDF units (origin bottom-left). */
  x: number;
  y: number;
  /** Font size of most of the line's characters. */
  size: number;
  /** The font of most of the line's characters. */
  font: FontKey;
  /** Share (0..1) of the line's visible characters set in a monospaced font. */
  mono: number;
  /** Share (0..1) of the line's non-monospaced characters in its dominant font and size. */
  uniform: number;
}

export interface FontUsage {
  chars: number;
  /** Sum of run widths divided by font size: how wide the font sets a character, on average. */
  ems: number;
  monospace: boolean;
}

export interface PageText {
  /** 1-based. */
  page: number;
  lines: PageLine[];
  fonts: Record<FontKey, FontUsage>;
}

/** The subset of pdf.js's `TextContent` this module reads. */
export interface TextContentLike {
  items: readonly unknown[];
  styles: Record<string, { fontFamily: string; ascent: number; descent: number; vertical?: boolean }>;
}

interface TextRun {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

function isTextRun(item: unknown): item is TextRun {
  return typeof item === 'object' && item !== null && 'str' in item && 'transform' in item;
}

interface LineBuilder {
  parts: string[];
  x: number;
  y: number;
  end: number;
  /** Right edge of the last run with visible text (pdf.js fills gaps with runs of spaces). */
  textEnd: number;
  size: number;
  /** Non-monospaced characters by `font@size`. */
  styleChars: Map<string, number>;
  monoChars: number;
  /** The style of a line set only in monospace. */
  monoStyle: string;
  chars: number;
}

const visibleCharacters = (text: string): number => text.replace(/\s+/g, '').length;

/**
 * Between two runs of one line, a gap this many font sizes wide is a column gap (a table cell, a
 * definition list's term and text), far wider than any word space of justified text.
 */
const cellGap = 1.2;
const cellMarker = '\u001f';

/**
 * `weights` (font id → bold), when known, marks a bold font's key (`:w700`): pdf.js's styles carry no
 * weight, so without it bold and regular of one family share a key.
 */
export function pageLines(
  page: number,
  content: TextContentLike,
  weights?: ReadonlyMap<string, boolean>,
): PageText {
  const fontKeys = new Map<string, { key: FontKey; monospace: boolean }>();
  const fonts: Record<FontKey, FontUsage> = {};
  const lines: PageLine[] = [];
  let current: LineBuilder | undefined;

  const fontOf = (fontName: string) => {
    let known = fontKeys.get(fontName);
    if (!known) {
      const style = content.styles[fontName];
      const family = style?.fontFamily ?? 'serif';
      // Only a bold font's key changes: regular fonts keep the key they had without weights.
      const weight = weights?.get(fontName) === true ? ':w700' : '';
      known = {
        key: `${family}:${style?.ascent ?? 0}:${style?.descent ?? 0}${style?.vertical ? ':v' : ''}${weight}`,
        monospace: family === 'monospace',
      };
      fontKeys.set(fontName, known);
    }
    return known;
  };

  const finish = () => {
    if (!current) return;
    const joined = current.parts.join('').replace(/\s+/g, ' ');
    // Cells stay apart: " | " between them (a plain space in monospaced text, where columns are code).
    const cells = current.monoChars >= 0.8 * current.chars ? ' ' : ' | ';
    const text = (joined.includes(cellMarker) ? joined.replace(/\s*\u001f\s*/g, cells) : joined).trim();
    if (text && current.chars > 0) {
      let bestStyle = current.monoStyle;
      let bestChars = 0;
      for (const [style, chars] of current.styleChars) {
        if (chars > bestChars) {
          bestStyle = style;
          bestChars = chars;
        }
      }
      const at = bestStyle.lastIndexOf('@');
      const proportional = current.chars - current.monoChars;
      lines.push({
        text,
        x: round(current.x),
        y: round(current.y),
        size: Number(bestStyle.slice(at + 1)),
        font: bestStyle.slice(0, at),
        mono: current.monoChars / current.chars,
        uniform: proportional > 0 ? bestChars / proportional : 1,
      });
    }
    current = undefined;
  };

  for (const item of content.items) {
    if (!isTextRun(item) || item.str.length === 0) continue;
    const [a = 0, b = 0, , , x = 0, y = 0] = item.transform;
    const size = Math.round(Math.hypot(a, b) * 10) / 10;
    if (size <= 0) continue;
    const font = fontOf(item.fontName);
    const chars = visibleCharacters(item.str);
    if (chars > 0) {
      const usage = fonts[font.key] ?? { chars: 0, ems: 0, monospace: font.monospace };
      fonts[font.key] = usage;
      usage.chars += chars;
      usage.ems += item.width / size;
    }
    const lineHeight = Math.max(size, current?.size ?? 0);
    const sameLine =
      current !== undefined && Math.abs(y - current.y) < 0.6 * lineHeight && x > current.end - lineHeight;
    if (!sameLine) {
      finish();
      current = {
        parts: [],
        x,
        y,
        end: x,
        textEnd: x,
        size,
        styleChars: new Map(),
        monoChars: 0,
        monoStyle: '',
        chars: 0,
      };
    }
    const line = current as LineBuilder;
    const gap = x - line.end;
    const last = line.parts.at(-1);
    const visible = item.str.trim() !== '';
    if (last !== undefined && visible && line.chars > 0 && x - line.textEnd > cellGap * size) {
      line.parts.push(cellMarker);
    } else if (last !== undefined && gap > 0.2 * size && !/\s$/.test(last) && !/^\s/.test(item.str))
      line.parts.push(' ');
    line.parts.push(item.str);
    line.end = Math.max(line.end, x + item.width);
    if (visible) line.textEnd = Math.max(line.textEnd, x + item.width);
    if (chars > 0) {
      const style = `${font.key}@${size}`;
      line.chars += chars;
      if (font.monospace) {
        line.monoChars += chars;
        line.monoStyle ||= style;
      } else line.styleChars.set(style, (line.styleChars.get(style) ?? 0) + chars);
      // A line's baseline is that of its main text, not of a superscript that started it.
      if (size > line.size) {
        line.size = size;
        line.y = y;
      }
    }
  }
  finish();
  return { page, lines, fonts };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

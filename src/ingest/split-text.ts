/**
 * Splits text into overlapping windows of at most `size` characters, ending each at the best
 * boundary in its second half: a blank line, a line break, a sentence end, a word gap. The next
 * window starts about `overlap` characters back, at a sentence start when one lies within half the
 * overlap of that point, else at a word: a window does not begin in the middle of a sentence when a
 * sentence boundary is near.
 */
export interface TextRange {
  start: number;
  end: number;
}

const boundaries: RegExp[] = [/\n\s*\n/g, /\n/g, /[.!?:;]["')\]]?\s/g, /\s/g];

export function splitText(text: string, size: number, overlap: number): TextRange[] {
  const ranges: TextRange[] = [];
  let start = skipSpace(text, 0);
  while (start < text.length) {
    if (text.length - start <= size) {
      ranges.push({ start, end: trimEnd(text, start, text.length) });
      break;
    }
    const limit = start + size;
    const end = bestBreak(text, start + Math.floor(size / 2), limit);
    ranges.push({ start, end: trimEnd(text, start, end) });
    let next = Math.max(end - overlap, start + 1);
    const sentence = sentenceStartNear(text, next, Math.floor(overlap / 2), start + 1, end);
    if (sentence !== undefined) next = sentence;
    else {
      // Start the overlap at a word, not in the middle of one (if the overlap has a word gap at all).
      const gap = text.slice(next - 1, end).search(/\s/);
      if (gap >= 0) next = next - 1 + gap + 1;
    }
    start = skipSpace(text, next);
  }
  return ranges.filter((range) => range.end > range.start);
}

/** The end of the window: just after the last, strongest boundary within [from, limit]. */
function bestBreak(text: string, from: number, limit: number): number {
  const window = text.slice(from, limit + 1);
  for (const boundary of boundaries) {
    boundary.lastIndex = 0;
    let last = -1;
    for (let match = boundary.exec(window); match; match = boundary.exec(window)) {
      const end = match.index + match[0].length;
      if (from + end <= limit) last = end;
      else break;
    }
    if (last > 0) return from + last;
  }
  return limit;
}

const sentenceEnd = /[.!?]["')\]]?\s+|\n\s*/g;

/** The sentence start closest to `target` within `reach` of it (and within [low, high)), if any. */
function sentenceStartNear(text: string, target: number, reach: number, low: number, high: number) {
  const from = Math.max(low, target - reach);
  const to = Math.min(high, target + reach);
  if (to <= from) return undefined;
  const window = text.slice(from - 1, to);
  let best: number | undefined;
  sentenceEnd.lastIndex = 0;
  for (let match = sentenceEnd.exec(window); match; match = sentenceEnd.exec(window)) {
    const at = from - 1 + match.index + match[0].length;
    if (at < from || at >= to) continue;
    if (best === undefined || Math.abs(at - target) < Math.abs(best - target)) best = at;
  }
  return best;
}

function skipSpace(text: string, index: number): number {
  let at = index;
  while (at < text.length && /\s/.test(text[at] ?? '')) at++;
  return at;
}

function trimEnd(text: string, start: number, end: number): number {
  let at = end;
  while (at > start && /\s/.test(text[at - 1] ?? '')) at--;
  return at;
}

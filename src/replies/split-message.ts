/**
 * Splits Markdown into messages no longer than a platform's limit, at the most sensible boundary
 * available: a blank line, then a line break, then a sentence end, then a space. A fenced code block
 * is never cut without closing it and reopening it (with its language) in the next part.
 */
import { shortenText } from './shorten-text.ts';

const fencePattern = /^(\s*)(`{3,}|~{3,})(.*)$/;

interface OpenFence {
  marker: string;
  info: string;
}

export function splitMessage(text: string, maxLength: number): string[] {
  if (maxLength < 40) throw new RangeError('maxLength must be at least 40');
  const trimmed = text.trim();
  if (trimmed.length <= maxLength) return trimmed.length > 0 ? [trimmed] : [];

  const parts: string[] = [];
  let remaining = trimmed;
  let reopen: OpenFence | undefined;
  while (remaining.length > 0) {
    const prefix = reopen ? `${reopen.marker}${reopen.info}\n` : '';
    const body = prefix + remaining;
    if (body.length <= maxLength) {
      parts.push(body);
      break;
    }
    // Leave room to close a fence that is open at the cut.
    const budget = maxLength - 4;
    let cut = chooseCut(body, budget, prefix.length);
    let piece = body.slice(0, cut);
    const open = openFenceAtEnd(piece);
    if (open) {
      const closing = `\n${open.marker}`;
      if (piece.length + closing.length > maxLength) {
        cut = chooseCut(body, maxLength - closing.length - 1, prefix.length);
        piece = body.slice(0, cut);
      }
      parts.push((piece.trimEnd() + closing).trim());
    } else {
      parts.push(piece.trimEnd());
    }
    reopen = openFenceAtEnd(piece);
    remaining = body.slice(cut).replace(/^\n+/, '');
    if (!reopen) remaining = remaining.trimStart();
  }
  return parts.filter((part) => part.trim().length > 0);
}

/** The best cut position in `text` at or before `limit`, never inside the reopened-fence prefix. */
function chooseCut(text: string, limit: number, minimum: number): number {
  const window = text.slice(0, limit);
  const floor = Math.max(minimum + 1, Math.floor(limit * 0.5));
  const candidates = [
    window.lastIndexOf('\n\n'),
    window.lastIndexOf('\n'),
    Math.max(window.lastIndexOf('. '), window.lastIndexOf('! '), window.lastIndexOf('? ')) + 1,
    window.lastIndexOf(' '),
  ];
  for (const candidate of candidates) {
    if (candidate >= floor) return candidate;
  }
  return limit;
}

/** The fence left open at the end of `text`, if any. */
function openFenceAtEnd(text: string): OpenFence | undefined {
  let open: OpenFence | undefined;
  for (const line of text.split('\n')) {
    const match = fencePattern.exec(line);
    if (!match) continue;
    const marker = match[2] ?? '```';
    if (!open) open = { marker, info: (match[3] ?? '').trim() };
    else if (
      marker.startsWith(open.marker[0] ?? '`') &&
      marker.length >= open.marker.length &&
      !match[3]?.trim()
    ) {
      open = undefined;
    }
  }
  return open;
}

/** Text cut off part-way (a streamed answer) with any code block left open closed, so what follows is not code. */
export function closeOpenFence(text: string): string {
  const open = openFenceAtEnd(text);
  return open ? `${text.trimEnd()}\n${open.marker}` : text;
}

/**
 * Text for a platform's fields of limited length and number (blocks, sections): at most `maxParts`
 * parts of `maxLength` each, cut where `splitMessage` cuts; where more would be needed, the last kept
 * part ends with `…`.
 */
export function splitWithin(text: string, maxLength: number, maxParts: number): string[] {
  const parts = splitMessage(text, maxLength).map((part) => shortenText(part, maxLength));
  const kept = parts.slice(0, maxParts);
  if (parts.length > maxParts) kept[maxParts - 1] = shortenText(`${kept[maxParts - 1]}\n…`, maxLength);
  return kept;
}

/**
 * An answer as written so far: any open code block closed for now, split so that the last part keeps
 * room for the platform's "still writing" `mark`, which ends it.
 */
export function splitWhileWriting(text: string, maxLength: number, mark = ''): string[] {
  const parts = splitMessage(closeOpenFence(text), maxLength - mark.length);
  if (parts.length > 0) parts[parts.length - 1] += mark;
  return parts;
}

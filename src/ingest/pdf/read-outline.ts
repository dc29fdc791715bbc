/**
 * The PDF's own outline (bookmarks): each entry's title and depth, in document order. Destinations
 * are not resolved (on a large manual that costs seconds); the layout step finds each title among the
 * lines in order instead (outline-headings.ts).
 */
import { openPdf, type PdfDocument } from './open-pdf.ts';

export interface OutlineEntry {
  title: string;
  /** 1 for a top-level entry. */
  depth: number;
}

/** More entries than this are not an outline a reader uses (and would cost time to match). */
export const maxOutlineEntries = 20_000;
/** A title longer than this is cut (a heading is a line or two; a hostile PDF may hold megabytes). */
const maxTitleLength = 300;

interface OutlineNode {
  title?: unknown;
  items?: unknown;
}

/** The outline flattened in document order; empty when the PDF has none or it cannot be read. */
export async function readOutline(document: PdfDocument): Promise<OutlineEntry[]> {
  const entries: OutlineEntry[] = [];
  let root: unknown;
  try {
    root = await document.getOutline();
  } catch {
    return entries;
  }
  // Depth-first, in document order, with an explicit stack (a hostile outline may nest deeply).
  const stack: { items: OutlineNode[]; next: number; depth: number }[] = [];
  if (Array.isArray(root)) stack.push({ items: root as OutlineNode[], next: 0, depth: 1 });
  while (stack.length > 0 && entries.length < maxOutlineEntries) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    const item = frame.items[frame.next++];
    if (frame.next > frame.items.length) {
      stack.pop();
      continue;
    }
    const title =
      typeof item?.title === 'string' ? item.title.slice(0, maxTitleLength).replace(/\s+/g, ' ').trim() : '';
    if (title) entries.push({ title, depth: frame.depth });
    if (Array.isArray(item?.items) && item.items.length > 0) {
      stack.push({ items: item.items as OutlineNode[], next: 0, depth: frame.depth + 1 });
    }
  }
  return entries;
}

/** Opens its own copy of the document to read the outline; never throws (no outline: empty). */
export async function readPdfOutline(bytes: Uint8Array): Promise<OutlineEntry[]> {
  let document: PdfDocument | undefined;
  try {
    document = await openPdf(bytes);
    return await readOutline(document);
  } catch {
    return [];
  } finally {
    await document?.destroy().catch(() => {});
  }
}

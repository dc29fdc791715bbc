/**
 * Parent/child chunking. Parents follow the document's sections (split on headings; sections under
 * 2,000 characters merged with the next, over 4,000 split with an overlap of 100); children are
 * 800-character windows (overlap 150; chosen with npm run bench:chunking) of a parent, cut at sentence or word boundaries and not across
 * headings: within a parent that merged several sections, each section is cut on its own (a short
 * section gives a short child); only a tiny section (under 100 characters) of the same topic joins the
 * child before it. A child's section path is the section that holds most of its text. Every chunk
 * knows its document, pages and section path; a child's indexed text starts with its section path.
 */
import type { ChildChunk, ParentChunk, Scope } from '../core/types.ts';
import { splitText } from './split-text.ts';
import { blockToMarkdown, type TextBlock } from './text-block.ts';

export interface ChunkOptions {
  parentMin: number;
  parentMax: number;
  parentOverlap: number;
  childSize: number;
  childOverlap: number;
  /** A section shorter than this joins the child before it when both belong to one topic. */
  childMin: number;
}

export const defaultChunkOptions: Readonly<ChunkOptions> = Object.freeze({
  parentMin: 2_000,
  parentMax: 4_000,
  parentOverlap: 100,
  childSize: 800,
  childOverlap: 150,
  childMin: 100,
});

export interface ChunkSource {
  documentId: string;
  documentName: string;
  scope: Scope;
}

export interface Chunks {
  parents: ParentChunk[];
  children: ChildChunk[];
}

/** A stretch of parent text that came from one block. */
interface Part {
  start: number;
  end: number;
  pageStart: number;
  pageEnd: number;
  sectionPath: string[];
  /** Position of the part's section within its parent group: parts of one section share it. */
  section: number;
  /** Position of the part's topic (a run of sections after a level 1–2 heading) within the group. */
  topic: number;
  heading: boolean;
}

/** A stretch of a parent that holds one section's text (and any headings leading into it). */
interface SectionSpan {
  start: number;
  end: number;
  parts: Part[];
}

interface Section {
  sectionPath: string[];
  blocks: TextBlock[];
  length: number;
}

export const sectionSeparator = ' › ';

/** The text a child is indexed (and shown) with: its section path, then its text. */
export function indexedChildText(sectionPath: readonly string[], documentName: string, text: string): string {
  const heading = sectionPath.length > 0 ? sectionPath.join(sectionSeparator) : documentName;
  return `${heading}\n${text}`;
}

export function parentIdOf(documentId: string, index: number): string {
  return `${documentId.slice(0, 12)}-p${index}`;
}

export function chunkDocument(
  blocks: readonly TextBlock[],
  source: ChunkSource,
  options: ChunkOptions = defaultChunkOptions,
): Chunks {
  const parents: ParentChunk[] = [];
  const children: ChildChunk[] = [];
  for (const group of groupSections(splitSections(blocks), options)) {
    const { text, parts } = joinParts(group);
    const pieces =
      text.length > options.parentMax
        ? splitText(text, balancedSize(text.length, options), options.parentOverlap)
        : [{ start: 0, end: text.length }];
    // Pieces run forward through the text, so one cursor over the parts finds each piece's parts
    // (linear in the group, however long one section is).
    let firstPart = 0;
    for (const piece of pieces) {
      const id = parentIdOf(source.documentId, parents.length + 1);
      const parentText = text.slice(piece.start, piece.end);
      while (firstPart < parts.length && (parts[firstPart]?.end ?? 0) <= piece.start) firstPart++;
      const parentParts = partsWithin(parts, firstPart, piece.start, piece.end);
      const location = locate(parentParts, 0, parentText.length, 'first');
      parents.push({ id, text: parentText, ...source, ...location });
      let childNumber = 0;
      for (const span of sectionSpans(parentParts, parentText.length, options.childMin)) {
        const spanText = parentText.slice(span.start, span.end);
        for (const range of splitText(spanText, options.childSize, options.childOverlap)) {
          const start = span.start + range.start;
          const end = span.start + range.end;
          const childLocation = locate(span.parts, start, end, 'most');
          children.push({
            id: `${id}-c${++childNumber}`,
            parentId: id,
            text: indexedChildText(
              childLocation.sectionPath,
              source.documentName,
              parentText.slice(start, end),
            ),
            ...source,
            ...childLocation,
          });
        }
      }
    }
  }
  return { parents, children };
}

/** The window size that cuts an oversized section into pieces of about equal length. */
function balancedSize(length: number, options: ChunkOptions): number {
  const step = options.parentMax - options.parentOverlap;
  const pieces = Math.ceil((length - options.parentOverlap) / step);
  return Math.min(options.parentMax, Math.ceil(length / pieces) + options.parentOverlap * 2);
}

/** Sections start at each heading; the path holds the latest heading of each level above. */
function splitSections(blocks: readonly TextBlock[]): Section[] {
  const sections: Section[] = [];
  const path: string[] = [];
  let current: Section | undefined;
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const level = Math.min(3, Math.max(1, block.level ?? 1));
      path.length = level - 1;
      for (let index = 0; index < level - 1; index++) path[index] ??= '';
      path[level - 1] = block.text;
      current = { sectionPath: path.filter(Boolean), blocks: [], length: 0 };
      sections.push(current);
    } else if (!current) {
      current = { sectionPath: [], blocks: [], length: 0 };
      sections.push(current);
    }
    current.blocks.push(block);
    current.length += blockToMarkdown(block).length + 2;
  }
  return sections;
}

/** Whether a section opens a new chapter or topic: it starts with a level 1–2 heading. */
function startsTopic(section: Section): boolean {
  const first = section.blocks[0];
  return first?.kind === 'heading' && (first.level ?? 1) <= 2;
}

/** Merges small sections forward until a parent reaches the minimum (never past the maximum). */
function groupSections(sections: readonly Section[], options: ChunkOptions): Section[][] {
  const groups: Section[][] = [];
  let group: Section[] = [];
  let length = 0;
  for (const section of sections) {
    // A new chapter or topic (level 1–2 heading) starts a new parent once this one is half full,
    // so a parent rarely holds the end of one topic and the start of the next.
    const newTopic = startsTopic(section) && length >= options.parentMin / 2;
    if (
      group.length > 0 &&
      (length >= options.parentMin || length + section.length > options.parentMax || newTopic)
    ) {
      groups.push(group);
      group = [];
      length = 0;
    }
    group.push(section);
    length += section.length;
  }
  if (group.length > 0) {
    const previous = groups.at(-1);
    const previousLength = previous?.reduce((sum, section) => sum + section.length, 0) ?? 0;
    if (previous && length < options.parentMin / 2 && previousLength + length <= options.parentMax) {
      previous.push(...group);
    } else groups.push(group);
  }
  return groups;
}

function joinParts(sections: readonly Section[]): { text: string; parts: Part[] } {
  const pieces: string[] = [];
  const parts: Part[] = [];
  let offset = 0;
  let topic = 0;
  for (const [sectionIndex, section] of sections.entries()) {
    if (sectionIndex > 0 && startsTopic(section)) topic++;
    for (const block of section.blocks) {
      if (pieces.length > 0) {
        pieces.push('\n\n');
        offset += 2;
      }
      const markdown = blockToMarkdown(block);
      pieces.push(markdown);
      parts.push({
        start: offset,
        end: offset + markdown.length,
        pageStart: block.pageStart,
        pageEnd: block.pageEnd,
        sectionPath: section.sectionPath,
        section: sectionIndex,
        topic,
        heading: block.kind === 'heading',
      });
      offset += markdown.length;
    }
  }
  return { text: pieces.join(''), parts };
}

/**
 * The parts overlapping [start, end), re-based to offsets from `start`. Parts are in text order and
 * do not overlap; `from` is the first part that ends after `start`.
 */
function partsWithin(parts: readonly Part[], from: number, start: number, end: number): Part[] {
  const within: Part[] = [];
  for (let index = from; index < parts.length; index++) {
    const part = parts[index] as Part;
    if (part.start >= end) break;
    if (part.end > start) within.push({ ...part, start: part.start - start, end: part.end - start });
  }
  return within;
}

/**
 * Cuts a parent (its parts, clipped to [0, length)) into spans of one section each. Headings with no
 * text of their own before the next heading (a chapter title right above its first section) lead into
 * the span of the text that follows them; headings at the very end of a parent join the span before.
 * A tiny section (under `childMin` characters, such as a one-line "Usage") joins the span before it
 * when no level 1–2 heading lies between them (one topic) rather than becoming a near-empty child;
 * a tiny section that opens a topic stays a child of its own.
 */
function sectionSpans(parts: readonly Part[], length: number, childMin: number): SectionSpan[] {
  const spans: (SectionSpan & { section: number; hasText: boolean })[] = [];
  for (const part of parts) {
    const start = Math.max(0, part.start);
    const end = Math.min(length, part.end);
    if (end <= start) continue;
    const last = spans.at(-1);
    if (last && (last.section === part.section || !last.hasText)) {
      last.end = end;
      last.parts.push(part);
      last.section = part.section;
      last.hasText ||= !part.heading;
    } else {
      spans.push({ start, end, parts: [part], section: part.section, hasText: !part.heading });
    }
  }
  const joined: SectionSpan[] = [];
  for (const [index, span] of spans.entries()) {
    const previous = joined.at(-1);
    const trailingHeadings = index === spans.length - 1 && !span.hasText;
    const tiny = span.end - span.start < childMin && previous?.parts.at(-1)?.topic === span.parts[0]?.topic;
    if (previous && (trailingHeadings || tiny)) {
      previous.end = span.end;
      previous.parts.push(...span.parts);
    } else joined.push({ start: span.start, end: span.end, parts: [...span.parts] });
  }
  return joined;
}

/**
 * Pages and section of a range: the section of its first text (a parent) or of most of its text (a
 * child); headings alone count only when the range holds no text.
 */
function locate(parts: readonly Part[], start: number, end: number, section: 'first' | 'most') {
  let pageStart = Number.POSITIVE_INFINITY;
  let pageEnd = 0;
  const textBySection = new Map<number, { path: string[]; length: number }>();
  let headingPath: string[] | undefined;
  for (const part of parts) {
    if (part.end <= start || part.start >= end) continue;
    if (part.heading) headingPath ??= part.sectionPath;
    else {
      const overlap = Math.min(end, part.end) - Math.max(start, part.start);
      const counted = textBySection.get(part.section) ?? { path: part.sectionPath, length: 0 };
      counted.length += overlap;
      textBySection.set(part.section, counted);
    }
    pageStart = Math.min(pageStart, part.pageStart);
    pageEnd = Math.max(pageEnd, part.pageEnd);
  }
  if (pageEnd === 0) {
    pageStart = parts[0]?.pageStart ?? 1;
    pageEnd = parts[0]?.pageEnd ?? 1;
  }
  let sectionPath: string[] | undefined;
  let most = 0;
  for (const { path, length } of textBySection.values()) {
    if (length > most && (section === 'most' || sectionPath === undefined)) {
      most = length;
      sectionPath = path;
    }
  }
  return {
    pageStart,
    pageEnd,
    sectionPath: [...(sectionPath ?? headingPath ?? parts[0]?.sectionPath ?? [])],
  };
}

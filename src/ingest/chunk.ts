/**
 * Parent/child chunking. Parents follow the document's sections (split on headings; sections under
 * 2,000 characters merged with the next, over 4,000 split with an overlap of 100); children are
 * 500-character windows (overlap 100) of a parent, cut at sentence or word boundaries. Every chunk
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
}

export const defaultChunkOptions: Readonly<ChunkOptions> = Object.freeze({
  parentMin: 2_000,
  parentMax: 4_000,
  parentOverlap: 100,
  childSize: 500,
  childOverlap: 100,
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
  heading: boolean;
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
    for (const piece of pieces) {
      const id = parentIdOf(source.documentId, parents.length + 1);
      const parentText = text.slice(piece.start, piece.end);
      const parentParts = partsWithin(parts, piece.start, piece.end);
      const location = locate(parentParts, 0, parentText.length);
      parents.push({ id, text: parentText, ...source, ...location });
      splitText(parentText, options.childSize, options.childOverlap).forEach((range, index) => {
        const childLocation = locate(parentParts, range.start, range.end);
        children.push({
          id: `${id}-c${index + 1}`,
          parentId: id,
          text: indexedChildText(
            childLocation.sectionPath,
            source.documentName,
            parentText.slice(range.start, range.end),
          ),
          ...source,
          ...childLocation,
        });
      });
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

/** Merges small sections forward until a parent reaches the minimum (never past the maximum). */
function groupSections(sections: readonly Section[], options: ChunkOptions): Section[][] {
  const groups: Section[][] = [];
  let group: Section[] = [];
  let length = 0;
  for (const section of sections) {
    const first = section.blocks[0];
    // A new chapter or topic (level 1–2 heading) starts a new parent once this one is half full,
    // so a parent rarely holds the end of one topic and the start of the next.
    const startsTopic =
      first?.kind === 'heading' && (first.level ?? 1) <= 2 && length >= options.parentMin / 2;
    if (
      group.length > 0 &&
      (length >= options.parentMin || length + section.length > options.parentMax || startsTopic)
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
  for (const section of sections) {
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
        heading: block.kind === 'heading',
      });
      offset += markdown.length;
    }
  }
  return { text: pieces.join(''), parts };
}

/** The parts overlapping [start, end), re-based to offsets from `start`. */
function partsWithin(parts: readonly Part[], start: number, end: number): Part[] {
  return parts
    .filter((part) => part.end > start && part.start < end)
    .map((part) => ({ ...part, start: part.start - start, end: part.end - start }));
}

function locate(parts: readonly Part[], start: number, end: number) {
  let pageStart = Number.POSITIVE_INFINITY;
  let pageEnd = 0;
  // The section of the first text the range holds (a range that starts with headings belongs under them).
  let sectionPath: string[] | undefined;
  let headingPath: string[] | undefined;
  for (const part of parts) {
    if (part.end <= start || part.start >= end) continue;
    if (part.heading) headingPath ??= part.sectionPath;
    else sectionPath ??= part.sectionPath;
    pageStart = Math.min(pageStart, part.pageStart);
    pageEnd = Math.max(pageEnd, part.pageEnd);
  }
  if (pageEnd === 0) {
    pageStart = parts[0]?.pageStart ?? 1;
    pageEnd = parts[0]?.pageEnd ?? 1;
  }
  return {
    pageStart,
    pageEnd,
    sectionPath: [...(sectionPath ?? headingPath ?? parts[0]?.sectionPath ?? [])],
  };
}

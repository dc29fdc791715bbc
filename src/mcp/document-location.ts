/**
 * Where a passage is in its document, for MCP clients. One small function so a richer location
 * (slide, sheet and rows, URL) can replace it in one place once the readers give one.
 */
import type { ChunkLocation } from '../core/types.ts';

export interface DocumentLocation {
  /** 1-based, inclusive. */
  pages: [number, number];
  /** The headings from the top down, joined with ›. */
  section?: string;
}

export function locationOf(
  chunk: Pick<ChunkLocation, 'pageStart' | 'pageEnd' | 'sectionPath'>,
): DocumentLocation {
  return {
    pages: [chunk.pageStart, chunk.pageEnd],
    ...(chunk.sectionPath.length > 0 ? { section: chunk.sectionPath.join(' › ') } : {}),
  };
}

/** `p. 3–4, Install › Linux`, for the tools' text content. */
export function describeLocation(location: DocumentLocation): string {
  const [start, end] = location.pages;
  const pages = start === end ? `p. ${start}` : `p. ${start}–${end}`;
  return location.section ? `${pages}, ${location.section}` : pages;
}

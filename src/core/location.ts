/**
 * Where a chunk came from, in its document's own terms: `pageStart`/`pageEnd` of every chunk are
 * positions in the unit of the document's kind (pages, slides, rows; see core/file-kind.ts), and a
 * sheet's name is the first element of its section path. `ragent search --json` gives this for each hit;
 * answers' source lines are written from it ("costs.xlsx, sheet 2026, rows 12–18").
 */
import { type FileKind, sectionKinds, sheetKinds, slideKinds } from './file-kind.ts';

export const sectionSeparator = ' › ';

export type Location = (
  | { pages: [number, number] }
  | { slide: number }
  | { slides: [number, number] }
  /** `sheet` is absent for CSV/TSV files (they have one unnamed sheet). */
  | { sheet?: string; rows: [number, number] }
  /** Absent `section`: the text before any heading. */
  | { section?: string }
) & { url?: string };

export interface LocatedChunk {
  pageStart: number;
  pageEnd: number;
  sectionPath: readonly string[];
}

/** The location of a chunk of a document of this kind; `url` for documents that came from the web. */
export function locationOf(
  kind: FileKind | undefined,
  chunk: LocatedChunk,
  document?: { name: string; url?: string },
): Location {
  const url = document?.url ? { url: document.url } : {};
  const range: [number, number] = [chunk.pageStart, chunk.pageEnd];
  if (kind && slideKinds.has(kind)) {
    return chunk.pageStart === chunk.pageEnd ? { slide: chunk.pageStart, ...url } : { slides: range, ...url };
  }
  if (kind && sheetKinds.has(kind)) {
    const sheet = kind === 'csv' || kind === 'tsv' ? undefined : chunk.sectionPath[0];
    return { ...(sheet ? { sheet } : {}), rows: range, ...url };
  }
  if (kind && sectionKinds.has(kind)) {
    const section = chunk.sectionPath.join(sectionSeparator);
    return { ...(section ? { section } : {}), ...url };
  }
  return { pages: range, ...url };
}

/** Whether positions of this kind are pages (what citations said before kinds: "p. 12"). */
export function isPaged(kind: FileKind | undefined): boolean {
  return !kind || !(slideKinds.has(kind) || sheetKinds.has(kind) || sectionKinds.has(kind));
}

const range = ([start, end]: readonly [number, number]) => (start === end ? `${start}` : `${start}–${end}`);

/**
 * How a source line names a place in a file: "bash.pdf (p. 12–13)", "launch-plan.pptx, slide 4",
 * "costs.xlsx, sheet 2026, rows 12–18", "data.csv, rows 3–9", "guide.docx › Returns".
 */
export function describeLocation(file: string, location: Location): string {
  if ('pages' in location) {
    const [start, end] = location.pages;
    return `${file} (${start === end ? `p. ${start}` : `p. ${start}–${end}`})`;
  }
  if ('slide' in location) return `${file}, slide ${location.slide}`;
  if ('slides' in location) return `${file}, slides ${range(location.slides)}`;
  if ('rows' in location) {
    const rows =
      location.rows[0] === location.rows[1] ? `row ${location.rows[0]}` : `rows ${range(location.rows)}`;
    return location.sheet ? `${file}, sheet ${location.sheet}, ${rows}` : `${file}, ${rows}`;
  }
  return 'section' in location && location.section ? `${file}${sectionSeparator}${location.section}` : file;
}

/**
 * The place alone, for lines that show the file name on their own: "p. 12", "slide 4",
 * "sheet 2026, rows 12–18", "rows 3–9", "› Returns" ('' for a whole text document).
 */
export function describePlace(location: Location): string {
  const described = describeLocation('', location);
  if ('pages' in location) return described.slice(2, -1);
  return described.replace(/^, /, '').replace(/^ › /, '› ');
}

/**
 * How big a document is in its own unit: "12 pages", "4 slides", "1,200 rows" (the last row number of
 * a spreadsheet). `pages` of a document record holds that count.
 */
export function describeExtent(document: { pages: number; kind?: FileKind }): string {
  const { pages, kind } = document;
  const unit = kind && slideKinds.has(kind) ? 'slide' : kind && sheetKinds.has(kind) ? 'row' : 'page';
  return `${pages.toLocaleString('en-US')} ${unit}${pages === 1 ? '' : 's'}`;
}

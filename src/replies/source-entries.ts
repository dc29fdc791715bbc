/**
 * An answer's sources as entries every platform lists the same way: the file's name (shown literally
 * by the platform), a link where the platform allows one, and where in the file (pages, slide, sheet
 * rows, section). Numbered when the answer cites by number, so each [n] of the text finds its source;
 * otherwise one entry per source, or per file with its pages merged (`grouped`).
 */
import { describePlace } from '../core/location.ts';
import { isWebPageSource, type Source } from '../core/types.ts';
import { moreSourcesText } from '../turns/messages-en.ts';
import { shortenText } from './shorten-text.ts';

export interface SourceEntry {
  number?: number;
  name: string;
  link?: string;
  /** Plain text ('' when nothing more precise than the file is known). */
  place: string;
}

/**
 * How a platform lists an answer's sources: the links it allows (its own pages, such as an upload's,
 * and web pages ingested by their address, never another site's link a file happened to carry), how
 * such a link is written as a target, how it writes one entry, its room.
 */
export interface SourceListing {
  numbered: boolean;
  grouped: boolean;
  ownPage(link: string): boolean;
  linkTarget(link: string): string;
  write(entry: SourceEntry): string;
  separator: string;
  /** The most characters the list may take. */
  budget: number;
  /** Where they do not all fit: the last entries give way to "… and N more" (else the list is shortened). */
  countMore?: boolean;
}

/** The entries, each written by the platform, joined within its budget. */
export function sourceList(sources: readonly Source[], listing: SourceListing): string {
  const link = (source: Source) =>
    source.link && (listing.ownPage(source.link) || isWebPageSource(source))
      ? listing.linkTarget(source.link)
      : undefined;
  const written = sourceEntries(sources, { ...listing, link }).map(listing.write);
  const { separator, budget } = listing;
  if (!listing.countMore) return shortenText(written.join(separator), budget);
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of written.entries()) {
    const more = moreSourcesText(written.length - index);
    if (length + line.length + 2 * separator.length + more.length > budget) {
      kept.push(more);
      break;
    }
    kept.push(line);
    length += line.length + separator.length;
  }
  return kept.join(separator);
}

export function sourceEntries(
  sources: readonly Source[],
  options: { numbered: boolean; grouped: boolean; link(source: Source): string | undefined },
): SourceEntry[] {
  if (options.numbered || !options.grouped) {
    return sources.map((source, index) => {
      const link = options.link(source);
      const section = options.numbered && source.section?.length ? `, ${source.section.join(' › ')}` : '';
      return {
        ...(options.numbered ? { number: index + 1 } : {}),
        name: source.file,
        ...(link ? { link } : {}),
        place: source.location ? describePlace(source.location) : `${pages(source.pages)}${section}`,
      };
    });
  }
  const files = new Map<string, { ranges: Array<[number, number]>; places: string[]; link?: string }>();
  for (const source of sources) {
    const file = files.get(source.file) ?? { ranges: [], places: [] };
    files.set(source.file, file);
    if (source.location) {
      const place = describePlace(source.location);
      if (place && !file.places.includes(place)) file.places.push(place);
    } else if (!file.ranges.some(([start, end]) => start === source.pages[0] && end === source.pages[1])) {
      file.ranges.push(source.pages);
    }
    file.link ??= options.link(source);
  }
  return [...files].map(([name, { ranges, places, link }]) => {
    const merged = ranges
      .sort((a, b) => a[0] - b[0])
      .map(([start, end]) => (start === end ? String(start) : `${start}–${end}`))
      .join(', ');
    const label = ranges.length === 1 && ranges[0]?.[0] === ranges[0]?.[1] ? 'p.' : 'pp.';
    const place = [...(ranges.length > 0 ? [`${label} ${merged}`] : []), ...places].join(', ');
    return { name, ...(link ? { link } : {}), place };
  });
}

function pages([start, end]: [number, number]): string {
  return start === end ? `p. ${start}` : `pp. ${start}–${end}`;
}

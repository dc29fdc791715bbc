/**
 * Pages, sources and the trailing sources block of an answer: `file.pdf (p. 12–13)`, and for other kinds
 * of documents their own places (`costs.xlsx, sheet 2026, rows 12–18`, `deck.pptx, slide 4`,
 * `guide.docx › Returns`).
 */
import { type FileKind, sectionKinds, sheetKinds } from '../core/file-kind.ts';
import { describeLocation, isPaged, locationOf } from '../core/location.ts';
import type { RetrievedContext, Source } from '../core/types.ts';
import type { AgentContext } from './state.ts';

export function formatPages(pages: readonly [number, number]): string {
  return pages[0] === pages[1] ? `p. ${pages[0]}` : `p. ${pages[0]}–${pages[1]}`;
}

/**
 * `bash.pdf (p. 12–13)`, with the cited section `bash.pdf (p. 12–13, Loops › While)`, and for other
 * kinds of documents their own places (`deck.pptx, slide 4`).
 */
export function formatSource(source: Source): string {
  if (source.location) return describeLocation(source.file, source.location);
  const section = source.section?.length ? `, ${source.section.join(' › ')}` : '';
  return `${source.file} (${formatPages(source.pages)}${section})`;
}

/** For a sub-question where the agent read no section, at most this many of its best hits are sources. */
export const maxHitSources = 3;

/**
 * The sources of an answer: the sections the agent read, or, for a sub-question where it read none,
 * its best few passages (search order). Overlapping or adjacent page ranges of one document are merged
 * (for spreadsheets: row ranges of one sheet; for text documents: one source per section). `kinds`
 * gives each document's kind (absent: cited by pages, as PDFs are).
 */
export function collectSources(
  contextsPerAnswer: readonly AgentContext[][],
  kinds: ReadonlyMap<string, FileKind> = new Map(),
): Source[] {
  const picked: AgentContext[] = [];
  for (const contexts of contextsPerAnswer) {
    const read = contexts.filter((context) => context.via === 'parent');
    picked.push(...(read.length > 0 ? read : contexts.slice(0, maxHitSources)));
  }
  const byPlace = new Map<
    string,
    { file: string; docId: string; sectionPath: string[]; ranges: Array<[number, number]> }
  >();
  for (const context of picked) {
    const kind = kinds.get(context.documentId);
    // A sheet's rows merge within the sheet; a text document is cited by section.
    const within =
      kind && sheetKinds.has(kind)
        ? context.sectionPath.slice(0, 1)
        : kind && sectionKinds.has(kind)
          ? context.sectionPath
          : [];
    const key = JSON.stringify([context.documentId, ...within]);
    const entry = byPlace.get(key) ?? {
      file: context.file,
      docId: context.documentId,
      sectionPath: within,
      ranges: [],
    };
    entry.ranges.push([context.pages[0], context.pages[1]]);
    byPlace.set(key, entry);
  }
  const sources: Source[] = [];
  for (const { file, docId, sectionPath, ranges } of byPlace.values()) {
    const kind = kinds.get(docId);
    const source = (pages: [number, number]): Source =>
      isPaged(kind)
        ? { file, docId, pages }
        : {
            file,
            docId,
            pages,
            location: locationOf(kind, { pageStart: pages[0], pageEnd: pages[1], sectionPath }),
          };
    ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let current: [number, number] | undefined;
    for (const range of ranges) {
      if (current && range[0] <= current[1] + 1) current[1] = Math.max(current[1], range[1]);
      else {
        if (current) sources.push(source(current));
        current = [range[0], range[1]];
      }
    }
    if (current) sources.push(source(current));
  }
  return sources;
}

/** The sources with the upload link of their document, where it has one (`RetrievalTools.documentDetails`). */
export function linkSources(sources: readonly Source[], links: ReadonlyMap<string, string>): Source[] {
  return sources.map((source) => {
    const link = links.get(source.docId);
    return link ? { ...source, link } : source;
  });
}

const trailingSources = /\n+[ \t]*[*_#>]*[ \t]*sources?[ \t]*[*_]*[ \t]*(?::|\n|$)[\s\S]*$/i;
/** Horizontal rules (`---`, `***`, `___`, spaced or longer) left at the end once the sources are gone. */
const trailingRules = /(?:\n[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})[ \t]*)+$/;

/** Removes a sources block the model wrote at the end, so the one built from what was retrieved is the only one. */
export function stripSourcesBlock(markdown: string): string {
  const match = trailingSources.exec(markdown);
  // Only strip when the block is at the end and short (a list of citations, not prose).
  const block = match?.[0] ?? '';
  const body =
    match && block.split('\n').filter((line) => line.trim()).length <= 25
      ? markdown.slice(0, match.index)
      : markdown;
  return `\n${body.trim()}`.replace(trailingRules, '').trim();
}

/** The sources block: numbered when the answer cites by number ([1] is the first source). */
export function appendSources(body: string, sources: readonly Source[], numbered = false): string {
  if (sources.length === 0) return `${body}\n\nSources: none`;
  const lines = sources.map(
    (source, index) => `- ${numbered ? `[${index + 1}] ` : ''}${formatSource(source)}`,
  );
  return `${body}\n\nSources:\n${lines.join('\n')}`;
}

/** Instead of sources, for an answer that found nothing: what was searched, so the user can judge it. */
export function appendSearches(body: string, searches: readonly string[]): string {
  if (searches.length === 0) return body;
  const shown = searches.slice(0, 6).map((query) => `“${query}”`);
  const more = searches.length > shown.length ? ` and ${searches.length - shown.length} more` : '';
  return `${body}\n\nSearched the documents for ${shown.join(', ')}${more}; nothing found answers the question.`;
}

export function toRetrievedContext(context: AgentContext): RetrievedContext {
  return {
    parentId: context.parentId,
    file: context.file,
    pages: context.pages,
    sectionPath: context.sectionPath,
    text: context.text,
  };
}

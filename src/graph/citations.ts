/**
 * Numbered citations and "not found" answers. The retrieval tools give every section of a turn a number
 * (`Cite as: [n]`); the model marks its claims with those numbers. Here the final text is checked: the
 * cited numbers are renumbered 1, 2, … in the order they first appear (unknown numbers dropped), so the
 * sources list exactly what the answer cites, in that order. An answer that says the documents do not
 * cover the question — the `NOT_FOUND` first line the prompts ask for, or one of the usual wordings in
 * its opening sentence when it cites nothing — is "not found": it gets no sources.
 */
import { citationMarker } from '../core/citation-markers.ts';
import type { FileKind } from '../core/file-kind.ts';
import { isPaged, locationOf } from '../core/location.ts';
import type { AnswerOutcome, Source } from '../core/types.ts';
import { collectSources } from './sources.ts';
import type { AgentContext } from './state.ts';

/** The first line the answer rules ask for when the documents do not answer the question. */
export const notFoundMarker = 'NOT_FOUND';

/**
 * A `NOT_FOUND` line, with what follows it on the line: `NOT_FOUND`, `NOT FOUND`, bold, with a colon or a
 * full stop; "Not found" only when a colon, full stop or the line's end follows (so "Not found in the
 * manual, …" stays prose, left to the wordings below).
 */
const notFoundLine =
  /^[ \t>*_#]*(?:[Nn][Oo][Tt]_[Ff][Oo][Uu][Nn][Dd]|NOT[ -]FOUND|[Nn]ot[ -]found(?=[*_]*[ \t]*(?:[:.]|$)))\b[*_]*[ \t]*[:.!-]?[ \t]*/;

/**
 * How models say they found nothing, in the opening sentence of an answer. Anchored on the words
 * "documents", "text", "context"… or on "I could not find", so an answer that merely mentions a missing
 * detail later on is not taken for one that found nothing.
 */
const notFoundWordings: readonly RegExp[] = [
  /\b(?:i|we)\b[^.!?\n]{0,20}?\b(?:could\s*n[o']?t|can\s*n[o']?t|cannot|was\s+(?:not\s+able|unable)|were\s+(?:not\s+able|unable)|did\s*n[o']?t|do\s*n[o']?t|am\s+unable|'m\s+unable|am\s+not\s+able|failed)\s+(?:to\s+)?(?:find|locate|see|identify)\b/i,
  /\b(?:documents?|documentation|retrieved\s+(?:text|passages?|sections?)|search\s+results?|sources?|passages?|manuals?|context|texts?|files?|research)\b[^.!?\n]{0,40}?\b(?:do|does|did)\s*(?:n[o']?t|not)\s+(?:seem\s+to\s+)?(?:cover|contain|mention|include|say|describe|address|explain|provide|discuss|answer|specify|state|have|give)\b/i,
  /\b(?:no|not\s+any)\s+(?:relevant\s+|specific\s+|further\s+)?(?:information|mention|details?|passages?|results?|answer)\b[^.!?\n]{0,60}?\b(?:found|available|in\s+the\s+(?:documents?|retrieved|search|text|context|files?|sources?|manuals?))\b/i,
  /\b(?:is|are|was|were)\s+not\s+(?:covered|mentioned|found|described|addressed|discussed|included|documented|explained)\s+(?:in|by)\s+(?:the|any|your)\b/i,
  /\bnothing\s+(?:relevant\s+)?(?:was\s+|could\s+be\s+)?found\b/i,
  /\bnot\s+(?:covered|found|mentioned)\s+in\s+the\s+(?:documents?|search|retrieved)/i,
];

/** The text up to the end of its first sentence (or line), which says whether anything was found. */
function openingSentence(text: string): string {
  const trimmed = text.trim().slice(0, 400);
  const end = /[.!?](?:\s|$)|\n/.exec(trimmed);
  return end ? trimmed.slice(0, end.index + 1) : trimmed;
}

/** Whether the answer says it found nothing in so many words (its opening sentence). */
export function saysNotFound(text: string): boolean {
  const opening = openingSentence(text);
  return notFoundWordings.some((pattern) => pattern.test(opening));
}

/** The answer without a `NOT_FOUND` line, and whether it had one. */
export function takeNotFoundLine(text: string): { text: string; marked: boolean } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => notFoundLine.test(line));
  // Only the first non-empty line or a line of its own counts: "not found" inside a sentence is prose.
  const firstLine = lines.findIndex((line) => line.trim() !== '');
  const line = lines[index];
  if (index < 0 || line === undefined) return { text, marked: false };
  const rest = line.replace(notFoundLine, '');
  if (index !== firstLine && rest.trim() !== '') return { text, marked: false };
  lines.splice(index, 1, ...(rest.trim() ? [rest] : []));
  return { text: lines.join('\n').trim(), marked: true };
}

/**
 * What a stream may show of an answer being written: no `NOT_FOUND` first line (nor the start of
 * one), and no citation marker still being written (its number may change once complete).
 */
export function visibleAnswerText(textSoFar: string, renumber?: (text: string) => string): string {
  const leading = textSoFar.trimStart();
  if (leading && notFoundMarker.startsWith(leading.toUpperCase().replace(/[ -]/g, '_'))) return '';
  let text = takeNotFoundLine(textSoFar).text;
  text = text.replace(/\[[\d,\s]*$/, '');
  return renumber ? renumber(text) : text;
}

export interface Renumbered {
  text: string;
  /** The original numbers in their new order: `cited[0]` became [1]. */
  cited: number[];
}

/**
 * Renumbers the markers in the order they first appear, keeping only numbers in `known`; a marker left
 * with no known number is removed. The same function runs on the streamed text and the final one, so
 * what was shown is a prefix of what is kept.
 */
export function renumberCitations(text: string, known: ReadonlySet<number>): Renumbered {
  const cited: number[] = [];
  const renumbered = text.replace(citationMarker, (marker, list: string) => {
    const numbers = list
      .split(/[,;]/)
      .map((part) => Number(part.trim()))
      .filter((number) => known.has(number));
    const mapped: number[] = [];
    for (const number of numbers) {
      let position = cited.indexOf(number);
      if (position < 0) position = cited.push(number) - 1;
      if (!mapped.includes(position + 1)) mapped.push(position + 1);
    }
    if (mapped.length === 0) return '';
    const space = marker.startsWith(' ') || marker.startsWith('\t') ? ' ' : '';
    return `${space}${mapped.map((number) => `[${number}]`).join('')}`;
  });
  // `[8][8]` written as two markers: one is enough.
  return { text: renumbered.replace(/(\[\d+\])(?:\1)+/g, '$1'), cited };
}

/** The citation numbers of these contexts. */
export function citationNumbers(contexts: readonly AgentContext[]): Set<number> {
  return new Set(contexts.flatMap((context) => (context.citation ? [context.citation] : [])));
}

export interface CitedAnswer {
  outcome: AnswerOutcome;
  /** The answer text with renumbered markers (not found: without markers or the `NOT_FOUND` line). */
  body: string;
  /** Not found: none. Cited: the cited sections in number order. Otherwise: what was read. */
  sources: Source[];
  /** Whether the body cites by number (the sources are then listed with their numbers). */
  numbered: boolean;
}

/**
 * Settles an answer: its outcome, its text and the sources it may show. `contextsPerAnswer` are the
 * contexts of each sub-question (the fallback sources, when the model cited nothing but answered).
 * `answered`: the caller knows the answer found something (part of a combined answer did).
 */
export function citeAnswer(
  text: string,
  contextsPerAnswer: readonly AgentContext[][],
  options: { answered?: boolean; kinds?: ReadonlyMap<string, FileKind> } = {},
): CitedAnswer {
  const kinds = options.kinds ?? new Map<string, FileKind>();
  const contexts = contextsPerAnswer.flat();
  const { text: withoutMarker, marked } = takeNotFoundLine(text);
  const { text: renumbered, cited } = renumberCitations(withoutMarker, citationNumbers(contexts));
  const notFound = marked || contexts.length === 0 || (cited.length === 0 && saysNotFound(withoutMarker));
  if (notFound && !options.answered) {
    // Nothing supports a "not found" answer: no markers, no sources.
    const plain = renumberCitations(withoutMarker, new Set()).text.trim();
    return { outcome: 'not-found', body: plain, sources: [], numbered: false };
  }
  if (cited.length === 0) {
    // A small model may answer without markers: show what was read, as before citations existed.
    return {
      outcome: 'answered',
      body: renumbered.trim(),
      sources: collectSources(contextsPerAnswer, kinds),
      numbered: false,
    };
  }
  const sources = cited.map((number) => {
    const context = bestContextFor(contexts, number);
    const pages: [number, number] = [context.pages[0], context.pages[1]];
    const kind = kinds.get(context.documentId);
    return {
      file: context.file,
      docId: context.documentId,
      pages,
      ...(context.sectionPath.length > 0 ? { section: context.sectionPath } : {}),
      // Slides, sheet rows and sections are cited in their own terms; pages as before.
      ...(isPaged(kind)
        ? {}
        : {
            location: locationOf(kind, {
              pageStart: pages[0],
              pageEnd: pages[1],
              sectionPath: context.sectionPath,
            }),
          }),
    };
  });
  return { outcome: 'answered', body: renumbered.trim(), sources, numbered: true };
}

/** The context of a citation number: the section read in full when there is one (its whole page range). */
function bestContextFor(contexts: readonly AgentContext[], citation: number): AgentContext {
  const matching = contexts.filter((context) => context.citation === citation);
  const context = matching.find((each) => each.via === 'parent') ?? matching[0];
  if (!context) throw new Error(`no context for citation ${citation}`);
  return context;
}

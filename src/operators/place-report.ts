/**
 * The report of one workspace or server, for the chat it lives in (a platform's home view or report command,
 * `/ragent-report`): the same numbers as `ragent report`, limited to that place — its own set and its
 * channels' sets — and cut down to what fits in a chat message. A place never sees another's turns or
 * documents: turns are read by the place's own scope (every turn asked there searched it) and kept
 * only when their thread is the place's, documents only when their scope is the place's.
 */
import type { DocumentRecord, Scope, ThreadId } from '../core/types.ts';
import { buildReport, type Report, type ReportSources, type UnansweredQuestion } from './report.ts';

export interface PlaceReportQuery {
  /** The workspace's or server's own scope (its place scope, core/ids.ts `placeScope`). */
  place: Scope;
  /** The platform module's name (platforms/registry.ts). */
  platform: string;
  /** Whether a thread id is one of the place's (its first parts are the place's). */
  ownsThread(threadId: ThreadId): boolean;
  /** ISO 8601: turns started at or after. */
  since: string;
}

export interface PlaceReportSources extends Omit<ReportSources, 'listDocuments'> {
  /** The documents of the place: its own set's and every channel's. */
  listPlaceDocuments(place: Scope): Promise<DocumentRecord[]>;
}

/** The scope is the place's own or one of its channels' (`<place>:<channel>`). */
export function inPlace(scope: Scope, place: Scope): boolean {
  return scope === place || scope.startsWith(`${place}:`);
}

export async function createPlaceReport(
  sources: PlaceReportSources,
  query: PlaceReportQuery,
): Promise<Report> {
  const [turns, votes, documents, verified] = await Promise.all([
    sources.turnHistory.listTurns({ since: query.since, scopes: [query.place], platform: query.platform }),
    sources.listFeedback({ since: query.since }),
    sources.listPlaceDocuments(query.place),
    sources.verifiedAnswers.listVerifiedAnswers(undefined),
  ]);
  return buildReport(
    turns.filter((turn) => query.ownsThread(turn.threadId)),
    votes,
    documents.filter((document) => inPlace(document.scope, query.place)),
    verified.filter((answer) => inPlace(answer.scope, query.place)),
  );
}

/** What a chat shows of a report: a few of each list, each question clipped (the CLI has the rest). */
export const chatReportLimits = { unanswered: 10, uncitedDocuments: 15, questionLength: 200 } as const;

/** The report windows a chat offers, in days. */
export const chatReportDays = [1, 7, 30] as const;
export const defaultChatReportDays = 7;
/** The longest window a chat asks for (the turn history keeps question text 90 days by default). */
export const maxChatReportDays = 365;

export interface ChatReportSummary {
  report: Report;
  unanswered: UnansweredQuestion[];
  /** Unanswered questions not shown. */
  moreUnanswered: number;
  uncitedDocuments: Report['uncitedDocuments'];
  moreUncitedDocuments: number;
}

export function summarizeForChat(report: Report): ChatReportSummary {
  const unanswered = report.unanswered.slice(0, chatReportLimits.unanswered).map((question) => ({
    ...question,
    text: clipText(question.text, chatReportLimits.questionLength),
  }));
  const uncitedDocuments = report.uncitedDocuments.slice(0, chatReportLimits.uncitedDocuments);
  return {
    report,
    unanswered,
    moreUnanswered: report.unanswered.length - unanswered.length,
    uncitedDocuments,
    moreUncitedDocuments: report.uncitedDocuments.length - uncitedDocuments.length,
  };
}

/** ISO 8601: `days` days before `now`. */
export function sinceDaysAgo(days: number, now: Date = new Date()): string {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString();
}

/** On one line, at most `length` characters (an ellipsis marks the cut). */
export function clipText(text: string, length: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  const characters = [...single];
  return characters.length <= length ? single : `${characters.slice(0, length - 1).join('')}…`;
}

/**
 * The first lines that fit in `limit` characters (joined by newlines), then a line saying how many
 * were left out (`more`: already left out before) — so a chat's message or block is never refused
 * for its length.
 */
export function fitLines(
  lines: readonly string[],
  more: number,
  limit: number,
  moreText: (left: number) => string,
): string[] {
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const left = lines.length - index - 1 + more;
    const tail = left > 0 ? moreText(left).length + 1 : 0;
    if (length + line.length + 1 + tail > limit) break;
    kept.push(line);
    length += line.length + 1;
  }
  const left = lines.length - kept.length + more;
  return left > 0 ? [...kept, moreText(left)] : kept;
}

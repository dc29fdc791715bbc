/**
 * What was asked and what was missed, for operators: `ragent report` prints it, and a chat's own
 * report (a platform's home view or command) can show the same numbers for its workspace or server.
 * Chat-agnostic: it reads the turn history, the votes and the document list it is given.
 *
 * - `totals`: questions (every recorded turn), answered (also verified answers served), notFound,
 *   clarified (asked back), failed, and 👍/👎 on those turns' answers;
 * - `perScope`: the same per channel/scope — a turn counts under the first scope it searched, its
 *   channel's own set where it has one;
 * - `unanswered`: each question answered "not found" or voted 👎 (with the vote's reason);
 * - `topDocuments`: the documents answers cited most; `uncitedDocuments`: documents of the report's
 *   scopes that no answer in the window cited (what to retire, or what nobody finds);
 * - `staleVerifiedAnswers`: verified answers of its scopes one of whose source documents was forgotten
 *   or changed since they were verified (they are still served: fix or remove them), with all their
 *   sources and the ones gone.
 */
import { isThreadFilesScope } from '../core/ids.ts';
import type { PastTurn, TurnHistory, TurnHistoryQuery } from '../core/turn-history.ts';
import type { DocumentRecord, Feedback, Scope } from '../core/types.ts';
import type { VerifiedAnswer, VerifiedAnswers } from '../core/verified-answers.ts';
import { formatVerifiedSource, goneSources } from './verified-answer-status.ts';

export interface ReportTotals {
  questions: number;
  answered: number;
  notFound: number;
  clarified: number;
  failed: number;
  thumbsUp: number;
  thumbsDown: number;
  /** Threads handed to a person (once per thread a day): not questions of their own. */
  handedOff: number;
}

export interface UnansweredQuestion {
  /** The question ('' once past RAGENT_RETENTION_DAYS). */
  text: string;
  scope: Scope;
  platform: string;
  /** `not-found`, or the 👎's reason (`wrong`, `outdated`, …; `thumbs-down` when none was given). */
  reason: string;
  /** What the user wrote with the 👎, if anything. */
  comment?: string;
  /** ISO 8601: when it was asked. */
  time: string;
  link?: string;
}

export interface Report {
  totals: ReportTotals;
  perScope: Array<{ scope: Scope } & ReportTotals>;
  unanswered: UnansweredQuestion[];
  topDocuments: Array<{ name: string; citations: number }>;
  uncitedDocuments: Array<{ name: string; scope: Scope }>;
  staleVerifiedAnswers: StaleVerifiedAnswer[];
}

export interface StaleVerifiedAnswer {
  id: string;
  scope: Scope;
  question: string;
  /** Its first source (`handbook.pdf:4-5`), as reports of earlier versions, which kept one, had it. */
  source: string | null;
  /** All its sources, in order. */
  sources: string[];
  /** Those whose document was forgotten or changed (what makes it stale). */
  goneSources: string[];
}

export interface ReportQuery {
  /** ISO 8601: turns started at or after. */
  since: string;
  /** Only turns that searched this scope (and only its documents); unset: every scope. */
  scope?: Scope;
  /** A platform module's name, or `cli` for the terminal. */
  platform?: string;
}

export interface ReportSources {
  turnHistory: Pick<TurnHistory, 'listTurns'>;
  /** The votes at or after a time. */
  listFeedback(query: { since: string }): Promise<Feedback[]>;
  /** The documents of these scopes; every scope's when `scopes` is undefined. */
  listDocuments(scopes: readonly Scope[] | undefined): Promise<DocumentRecord[]>;
  verifiedAnswers: Pick<VerifiedAnswers, 'listVerifiedAnswers'>;
}

/** How many top documents and unanswered questions a report lists. */
export const reportLimits = { topDocuments: 10, unanswered: 50 } as const;

export async function createReport(sources: ReportSources, query: ReportQuery): Promise<Report> {
  const filter: TurnHistoryQuery = {
    since: query.since,
    ...(query.scope ? { scopes: [query.scope] } : {}),
    ...(query.platform ? { platform: query.platform } : {}),
  };
  const scopes = query.scope ? [query.scope] : undefined;
  const [turns, votes, documents, verified] = await Promise.all([
    sources.turnHistory.listTurns(filter),
    // A vote always comes after its answer: the window's votes are enough.
    sources.listFeedback({ since: query.since }),
    sources.listDocuments(scopes),
    sources.verifiedAnswers.listVerifiedAnswers(scopes),
  ]);
  return buildReport(turns, votes, documents, verified);
}

/** The report of these turns, their votes (others are ignored) and the documents in its scopes. */
export function buildReport(
  turns: readonly PastTurn[],
  votes: readonly Feedback[],
  documents: readonly DocumentRecord[],
  verified: readonly VerifiedAnswer[] = [],
): Report {
  const votesByAnswer = new Map<string, Feedback[]>();
  for (const vote of votes)
    votesByAnswer.set(vote.answerId, [...(votesByAnswer.get(vote.answerId) ?? []), vote]);
  const totals = emptyTotals();
  const perScope = new Map<Scope, ReportTotals>();
  const unanswered: UnansweredQuestion[] = [];
  const citations = new Map<string, { name: string; citations: number }>();
  for (const turn of turns) {
    const scope = turn.scopes[0] ?? '';
    const scopeTotals = perScope.get(scope) ?? emptyTotals();
    perScope.set(scope, scopeTotals);
    const turnVotes = votesByAnswer.get(turn.id) ?? [];
    for (const counted of [totals, scopeTotals]) count(counted, turn, turnVotes);
    const asked = {
      text: turn.question,
      scope,
      platform: turn.platform,
      time: turn.startedAt,
      ...(turn.link ? { link: turn.link } : {}),
    };
    if (turn.outcome === 'handed-off') continue;
    if (turn.outcome === 'not-found') unanswered.push({ ...asked, reason: 'not-found' });
    for (const vote of turnVotes) {
      if (vote.value !== 'down') continue;
      unanswered.push({
        ...asked,
        reason: vote.reason ?? 'thumbs-down',
        ...(vote.comment ? { comment: vote.comment } : {}),
      });
    }
    for (const document of turn.citedDocuments) {
      const cited = citations.get(document.documentId) ?? { name: document.name, citations: 0 };
      cited.citations++;
      citations.set(document.documentId, cited);
    }
  }
  return {
    totals,
    perScope: [...perScope]
      .map(([scope, counted]) => ({ scope, ...counted }))
      .sort((left, right) => right.questions - left.questions || left.scope.localeCompare(right.scope)),
    // Newest first: what to look at next.
    unanswered: unanswered.reverse().slice(0, reportLimits.unanswered),
    topDocuments: [...citations.values()]
      .sort((left, right) => right.citations - left.citations || left.name.localeCompare(right.name))
      .slice(0, reportLimits.topDocuments),
    // A file attached to one question is that thread's, not a document of the place to retire.
    uncitedDocuments: documents
      .filter((document) => !citations.has(document.id) && !isThreadFilesScope(document.scope))
      .map((document) => ({ name: document.name, scope: document.scope }))
      .sort((left, right) => left.scope.localeCompare(right.scope) || left.name.localeCompare(right.name)),
    staleVerifiedAnswers: verified.flatMap((answer): StaleVerifiedAnswer[] => {
      const gone = goneSources(answer, documents);
      if (gone.length === 0) return [];
      const sources = answer.sources.map(formatVerifiedSource);
      return [
        {
          id: answer.id,
          scope: answer.scope,
          question: answer.question,
          source: sources[0] ?? null,
          sources,
          goneSources: gone.map(formatVerifiedSource),
        },
      ];
    }),
  };
}

function emptyTotals(): ReportTotals {
  return {
    questions: 0,
    answered: 0,
    notFound: 0,
    clarified: 0,
    failed: 0,
    thumbsUp: 0,
    thumbsDown: 0,
    handedOff: 0,
  };
}

function count(totals: ReportTotals, turn: PastTurn, votes: readonly Feedback[]): void {
  // A hand-off is recorded beside the turn it followed: counted apart, never as one more question.
  if (turn.outcome === 'handed-off') {
    totals.handedOff++;
    return;
  }
  totals.questions++;
  if (turn.outcome === 'answered' || turn.outcome === 'verified') totals.answered++;
  else if (turn.outcome === 'not-found') totals.notFound++;
  else if (turn.outcome === 'clarification') totals.clarified++;
  else if (turn.outcome === 'failed') totals.failed++;
  for (const vote of votes) {
    if (vote.value === 'up') totals.thumbsUp++;
    else totals.thumbsDown++;
  }
}

/**
 * `ragent feedback export [--since 7d|24h|ISO] [--format csv|jsonl]`: every 👍/👎 vote (a 👎 with its reason and
 * comment) with the question, the answer, its sources and a link to the thread, so a team can see which answers fail. Votes on
 * answers delivered before answers were recorded come with empty question and answer fields.
 */
import type { Command } from 'commander';
import type { DeliveredAnswer } from '../../../core/coordination-store.ts';
import { describeLocation } from '../../../core/location.ts';
import type { Feedback, Source } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';
import { parseSince } from '../parse-since.ts';

export interface FeedbackExportRow {
  at: string;
  vote: 'up' | 'down';
  /** A 👎's reason (wrong, outdated, incomplete, not-what-i-asked, other), '' when none was given. */
  reason: string;
  /** The user's own words with the reason. */
  comment: string;
  user: string;
  threadId: string;
  answerId: string;
  question: string;
  answer: string;
  sources: string;
  link: string;
}

const columns: Array<keyof FeedbackExportRow> = [
  'at',
  'vote',
  'reason',
  'comment',
  'user',
  'threadId',
  'answerId',
  'question',
  'answer',
  'sources',
  'link',
];

export function registerFeedbackCommand(program: Command, context: CliContext): void {
  const feedback = program.command('feedback').description('Work with 👍/👎 feedback on answers');
  feedback
    .command('export')
    .description('Print every vote with its question, answer, sources and thread link')
    .option('--since <time>', 'only votes at or after this time: 7d, 24h or ISO 8601 (e.g. 2026-11-01)')
    .option('--format <format>', 'csv or jsonl', 'csv')
    .action(async (options: { since?: string; format: string }) => {
      if (options.format !== 'csv' && options.format !== 'jsonl') {
        throw new RagentError(
          'INVALID_INPUT',
          errorMessages.INVALID_INPUT.feedbackFormatUnknown({ format: options.format }),
        );
      }
      const since = options.since === undefined ? undefined : parseSince(options.since);
      const { coordination } = await context.services();
      const votes = await coordination.listFeedback(since ? { since } : {});
      const answers = await coordination.findAnswers(votes.map((vote) => vote.answerId));
      const rows = exportRows(votes, answers);
      context.output.write(options.format === 'csv' ? toCsv(rows) : toJsonLines(rows));
    });
}

export function exportRows(
  votes: readonly Feedback[],
  answers: readonly DeliveredAnswer[],
): FeedbackExportRow[] {
  const byId = new Map(answers.map((answer) => [answer.answerId, answer]));
  return votes.map((vote) => {
    const answer = byId.get(vote.answerId);
    return {
      at: vote.at,
      vote: vote.value,
      reason: vote.reason ?? '',
      comment: vote.comment ?? '',
      user: vote.user,
      threadId: vote.threadId,
      answerId: vote.answerId,
      question: answer?.question ?? '',
      answer: answer?.answer ?? '',
      sources: formatSources(answer?.sources ?? []),
      link: answer?.link ?? '',
    };
  });
}

/** `bash.pdf p. 3–4; faq.pdf p. 7; deck.pptx, slide 4`. */
function formatSources(sources: readonly Source[]): string {
  return sources
    .map(({ file, pages: [start, end], location }) =>
      location ? describeLocation(file, location) : `${file} p. ${start === end ? start : `${start}–${end}`}`,
    )
    .join('; ');
}

export function toCsv(rows: readonly FeedbackExportRow[]): string {
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [
    columns.join(','),
    ...rows.map((row) => columns.map((column) => cell(row[column])).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

function toJsonLines(rows: readonly FeedbackExportRow[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join('');
}

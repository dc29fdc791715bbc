/**
 * `ragent report [--since 7d] [--scope S] [--platform slack|discord|cli] [--json]`: what was asked and
 * what was missed (src/operators/report.ts) as readable tables, or with --json as one object with
 * exactly the report's keys.
 */
import type { Command } from 'commander';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import { createReport, type Report, type ReportTotals } from '../../../operators/report.ts';
import { platformModules } from '../../../platforms/registry.ts';
import type { CliContext } from '../cli-context.ts';
import { parseSince } from '../parse-since.ts';
import { checkScope } from './chat-command.ts';

/** Every chat platform of the registry, and the terminal (`ragent ask` / `chat`). */
const platforms = [...platformModules.map((platform) => platform.name), 'cli'];
const platformChoices = `${platforms.slice(0, -1).join(', ')} or ${platforms.at(-1)}`;

interface ReportCommandOptions {
  since: string;
  scope?: string;
  platform?: string;
  json?: boolean;
}

export function registerReportCommand(program: Command, context: CliContext): void {
  program
    .command('report')
    .description('What was asked, answered and missed, and which documents answers cite')
    .option('--since <time>', 'from this time: 7d, 24h or ISO 8601 (e.g. 2026-11-01)', '7d')
    .option('-s, --scope <scope>', 'only questions that searched this scope (default: every scope)')
    .option('--platform <platform>', `only questions from ${platformChoices}`)
    .option('--json', 'print the report as JSON')
    .action(async (options: ReportCommandOptions) => {
      const since = parseSince(options.since);
      const scope = options.scope === undefined ? undefined : checkScope(options.scope);
      if (options.platform !== undefined && !platforms.includes(options.platform)) {
        throw new RagentError(
          'INVALID_INPUT',
          errorMessages.INVALID_INPUT.platformUnknown({ platform: options.platform, platformChoices }),
        );
      }
      const { turnHistory, coordination, index, verifiedAnswers } = await context.services();
      const report = await createReport(
        {
          turnHistory,
          verifiedAnswers,
          listFeedback: (query) => coordination.listFeedback(query),
          listDocuments: async (scopes) =>
            scopes ? index.listDocuments(scopes) : ((await index.listAllDocuments?.()) ?? []),
        },
        {
          since,
          ...(scope ? { scope } : {}),
          ...(options.platform ? { platform: options.platform } : {}),
        },
      );
      context.output.write(
        options.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : renderReport(report, { since, scope, platform: options.platform }),
      );
    });
}

const totalColumns: Array<[keyof ReportTotals, string]> = [
  ['questions', 'Questions'],
  ['answered', 'Answered'],
  ['notFound', 'Not found'],
  ['clarified', 'Clarified'],
  ['failed', 'Failed'],
  ['thumbsUp', '👍'],
  ['thumbsDown', '👎'],
  ['handedOff', 'Handed off'],
];

export function renderReport(
  report: Report,
  window: { since: string; scope: string | undefined; platform: string | undefined },
): string {
  const sections = [
    `Report since ${shortTime(window.since)} UTC — ${window.scope ?? 'every scope'}, ${window.platform ?? 'every platform'}`,
    table(
      totalColumns.map(([, title]) => title),
      [totalColumns.map(([key]) => String(report.totals[key]))],
      totalColumns.map(() => 'right'),
    ),
  ];
  if (report.perScope.length > 0) {
    sections.push(
      `By scope\n${table(
        ['Scope', ...totalColumns.map(([, title]) => title)],
        report.perScope.map((row) => [row.scope, ...totalColumns.map(([key]) => String(row[key]))]),
        ['left', ...totalColumns.map((): Align => 'right')],
      )}`,
    );
  }
  sections.push(
    report.unanswered.length === 0
      ? 'Unanswered: none.'
      : `Unanswered (not found or 👎), newest first\n${table(
          ['When', 'Platform', 'Scope', 'Reason', 'Question', 'Link'],
          report.unanswered.map((question) => [
            shortTime(question.time),
            question.platform,
            question.scope,
            question.comment ? `${question.reason}: ${clip(question.comment, 40)}` : question.reason,
            question.text ? clip(question.text, 60) : '(text past retention)',
            question.link ?? '',
          ]),
        )}`,
  );
  sections.push(
    report.topDocuments.length === 0
      ? 'Top documents: no answer cited a document.'
      : `Top documents\n${table(
          ['Citations', 'Document'],
          report.topDocuments.map((document) => [String(document.citations), document.name]),
          ['right', 'left'],
        )}`,
  );
  sections.push(
    report.uncitedDocuments.length === 0
      ? 'Documents no answer cited: none.'
      : `Documents no answer cited (${report.uncitedDocuments.length})\n${table(
          ['Scope', 'Document'],
          report.uncitedDocuments.map((document) => [document.scope, document.name]),
        )}`,
  );
  if (report.staleVerifiedAnswers.length > 0) {
    sections.push(
      `Verified answers citing a document since forgotten or changed (fix or remove them)\n${table(
        ['Id', 'Scope', 'Forgotten or changed', 'Question'],
        report.staleVerifiedAnswers.map((answer) => [
          answer.id,
          answer.scope,
          answer.goneSources.join(', '),
          clip(answer.question, 60),
        ]),
      )}`,
    );
  }
  return `${sections.join('\n\n')}\n`;
}

type Align = 'left' | 'right';

/** Columns padded to their widest cell (by code points, so 👍 lines up in a terminal well enough). */
function table(headers: readonly string[], rows: readonly string[][], align: readonly Align[] = []): string {
  const width = (text: string) => [...text].length;
  const widths = headers.map((header, column) =>
    Math.max(width(header), ...rows.map((row) => width(row[column] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const padding = ' '.repeat((widths[column] ?? 0) - width(cell));
        return align[column] === 'right' ? padding + cell : cell + padding;
      })
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** `2026-11-30 10:00`. */
function shortTime(iso: string): string {
  return iso.slice(0, 16).replace('T', ' ');
}

function clip(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return [...flat].length <= length ? flat : `${[...flat].slice(0, length - 1).join('')}…`;
}

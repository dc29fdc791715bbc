/**
 * `ragent answers add --scope S --question "…" --answer "…" [--source file:page …] [--by NAME]`,
 * `ragent answers list [--scope S] [--json]`, `ragent answers remove ID`: verified answers, served at
 * once to a later question of the scope that means the same (docs/operators.md). A source names a
 * document of the scope (its page or pages optional), and an answer may have several (`--source`
 * again, [1] the first); the answer is flagged stale once any of those documents is forgotten or
 * changed, since it may rest on that one.
 */
import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import {
  maxVerifiedSources,
  type VerifiedAnswer,
  type VerifiedAnswerSource,
} from '../../../core/verified-answers.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import { formatVerifiedSource, goneSources } from '../../../operators/verified-answer-status.ts';
import type { CliContext } from '../cli-context.ts';
import { checkScope } from './chat-command.ts';

/** Long enough for any FAQ answer, short enough to show in one chat message. */
const maxAnswerLength = 4_000;
const maxQuestionLength = 500;

interface AddOptions {
  scope: string;
  question: string;
  answer: string;
  /** Every `--source`, in the order given. */
  source: string[];
  by?: string;
}

export function registerAnswersCommand(program: Command, context: CliContext): void {
  const answers = program
    .command('answers')
    .description('Verified answers: served as they are to questions that mean the same');
  answers
    .command('add')
    .description('Add a verified answer to a scope')
    .requiredOption(
      '-s, --scope <scope>',
      'the document set it answers for (shared, or a set as `ragent docs list` shows it)',
    )
    .requiredOption('-q, --question <text>', 'the question, as users would ask it')
    .requiredOption('-a, --answer <text>', 'the answer (Markdown)')
    .option(
      '--source <file:page>',
      `a document it comes from, with a page or pages (e.g. handbook.pdf:4-5); again for another (at most ${maxVerifiedSources}, [1] is the first)`,
      (value: string, earlier: string[]) => [...earlier, value],
      [],
    )
    .option('--by <name>', 'who verified it (default: your user name)')
    .action(async (options: AddOptions) => {
      const scope = checkScope(options.scope);
      const question = bounded(options.question, 'question', maxQuestionLength);
      const answer = bounded(options.answer, 'answer', maxAnswerLength);
      if (options.source.length > maxVerifiedSources) {
        throw new RagentError(
          'INVALID_INPUT',
          errorMessages.INVALID_INPUT.answerTooManySources({
            count: options.source.length,
            maxSources: maxVerifiedSources,
          }),
        );
      }
      const { ingestion, verifiedAnswers } = await context.services();
      const sources: VerifiedAnswerSource[] = [];
      for (const text of options.source) {
        sources.push(
          await resolveSource(text, scope, (name) => ingestion.findDocument({ idOrName: name, scope })),
        );
      }
      const verified: VerifiedAnswer = {
        id: randomBytes(4).toString('hex'),
        scope,
        question,
        answer,
        sources,
        verifiedBy: options.by?.trim() || currentUser(),
        verifiedAt: new Date().toISOString(),
      };
      await verifiedAnswers.addVerifiedAnswer(verified);
      context.output.write(`Verified answer ${verified.id} added to ${scope}.\n`);
    });
  answers
    .command('list')
    .description(
      'List verified answers, flagging those one of whose source documents was forgotten or changed',
    )
    .option('-s, --scope <scope>', 'only this scope (default: every scope)')
    .option(
      '--json',
      'print an array of {id, scope, question, answer, source (the first), sources, stale, goneSources}',
    )
    .action(async (options: { scope?: string; json?: boolean }) => {
      const scope = options.scope === undefined ? undefined : checkScope(options.scope);
      const { ingestion, verifiedAnswers } = await context.services();
      const listed = await verifiedAnswers.listVerifiedAnswers(scope ? [scope] : undefined);
      const documents = await ingestion.listDocuments([...new Set(listed.map((answer) => answer.scope))]);
      const rows = listed.map((answer) => {
        const sources = answer.sources.map(formatVerifiedSource);
        const gone = goneSources(answer, documents).map(formatVerifiedSource);
        return {
          id: answer.id,
          scope: answer.scope,
          question: answer.question,
          answer: answer.answer,
          // The one field lists of earlier versions, which kept one source, had.
          source: sources[0] ?? null,
          sources,
          stale: gone.length > 0,
          goneSources: gone,
          verifiedBy: answer.verifiedBy,
          verifiedAt: answer.verifiedAt,
        };
      });
      if (options.json) {
        context.output.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      if (rows.length === 0) {
        context.output.write(
          `No verified answers${scope ? ` in ${scope}` : ''}. Add one with \`ragent answers add --scope S --question "…" --answer "…"\`.\n`,
        );
        return;
      }
      context.output.write(
        `${rows
          .map(
            (row) =>
              `${row.id}  ${row.scope}  verified by ${row.verifiedBy} on ${row.verifiedAt.slice(0, 10)}` +
              `${row.sources.length > 0 ? `  ${row.sources.length === 1 ? 'source' : 'sources'}: ${row.sources.join(', ')}` : ''}` +
              `${row.stale ? `  ⚠ STALE: a document it cites was forgotten or changed (${row.goneSources.join(', ')})` : ''}\n` +
              `  Q: ${row.question}\n  A: ${row.answer.replace(/\s+/g, ' ').slice(0, 200)}`,
          )
          .join('\n\n')}\n`,
      );
    });
  answers
    .command('remove')
    .description('Remove a verified answer')
    .argument('<id>', 'its id, as `ragent answers list` shows it')
    .action(async (id: string) => {
      const { verifiedAnswers } = await context.services();
      if (!(await verifiedAnswers.removeVerifiedAnswer(id.trim()))) {
        throw new RagentError('VERIFIED_ANSWER_NOT_FOUND', errorMessages.VERIFIED_ANSWER_NOT_FOUND({ id }));
      }
      context.output.write(`Removed verified answer ${id.trim()}.\n`);
    });
}

function bounded(text: string, what: string, maxLength: number): string {
  const trimmed = text.trim();
  if (!trimmed)
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.answerFieldEmpty({ what }));
  if (trimmed.length > maxLength) {
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.answerFieldTooLong({ what, length: trimmed.length, maxLength }),
    );
  }
  return trimmed;
}

/** `file`, `file:4` or `file:4-5` (a file name may itself contain `:`), checked against the document. */
async function resolveSource(
  text: string,
  scope: string,
  find: (name: string) => Promise<{ id: string; name: string; pages: number }>,
): Promise<VerifiedAnswerSource> {
  const pageSuffix = /^(.*\S):(\d{1,6})(?:-(\d{1,6}))?$/.exec(text.trim());
  const name = pageSuffix?.[1] ?? text.trim();
  const document = await find(name);
  const start = pageSuffix ? Number(pageSuffix[2]) : 1;
  const end = pageSuffix ? Number(pageSuffix[3] ?? pageSuffix[2]) : Math.max(1, document.pages);
  if (start < 1 || end < start || end > Math.max(1, document.pages)) {
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.answerSourcePageMissing({
        name: document.name,
        scope,
        pages: document.pages,
      }),
    );
  }
  return { file: document.name, pages: [start, end], documentId: document.id };
}

function currentUser(): string {
  try {
    return userInfo().username || 'cli';
  } catch {
    return 'cli';
  }
}

/**
 * `ragent ask "<question>" [--scope S] [--json] [--trace FILE]`: one answer, for scripts. Progress goes
 * to stderr so stdout holds only the answer, printed as it is written (or, with --json, the JSON of
 * the turn's result, one object, with its `outcome`: answered, not-found, clarification, stopped or
 * failed). A clarification or a stop exits with 2. `--trace` appends every chat-model call of the turn to FILE as JSON lines.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import { type ModelCallRecord, outcomeOf } from '../../../core/types.ts';
import { errorMessageOpenings, errorMessages } from '../../../error-messages-en.ts';
import { describeError, RagentError, toRagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';
import { handleAndRecord } from '../record-cli-turn.ts';
import { createStreamPrinter } from '../stream-printer.ts';
import { checkScope, describeProgress, renderTurnResult } from './chat-command.ts';

/** Asking with no documents to search would only make the model say it found nothing. */
function emptyScope(scope: string): RagentError {
  return new RagentError('SCOPE_EMPTY', errorMessages.SCOPE_EMPTY.noDocumentsInScope({ scope }));
}

interface AskCommandOptions {
  scope: string;
  json?: boolean;
  trace?: string;
}

export interface AskOutput {
  /** Where progress lines go (default: the context's progress stream, stderr). */
  progress?: NodeJS.WritableStream;
}

export function registerAskCommand(program: Command, context: CliContext, io: AskOutput = {}): void {
  program
    .command('ask')
    .description('Ask one question and print the answer (for scripts)')
    .argument('<question>', 'the question, in quotes')
    .option('-s, --scope <scope>', 'which documents to search', 'shared')
    .option('--json', 'print the whole result (answer, sources, contexts, counts) as JSON')
    .option(
      '--trace <file>',
      'append every model call of the turn (messages, tools, schema, options) as JSON lines',
    )
    .action(async (question: string, options: AskCommandOptions) => {
      const scope = checkScope(options.scope);
      if (!question.trim())
        throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.askQuestionEmpty());
      const progress = io.progress ?? context.progress ?? process.stderr;
      const trace = options.trace ? openTrace(options.trace) : undefined;
      const services = await context.services();
      const { conversations, ingestion } = services;
      if ((await ingestion.listDocuments([scope])).length === 0) throw emptyScope(scope);
      // A one-off thread, forgotten afterwards: `ask` has no follow-ups.
      const threadId = `cli:ask-${randomUUID()}`;
      // Without --json the answer prints to stdout as it is written.
      const printer = options.json ? undefined : createStreamPrinter(context.output, '');
      const turn = handleAndRecord(
        services,
        { threadId, scopes: [scope], user: 'cli', text: question },
        (event) => {
          if (options.json) return;
          const description = describeProgress(event);
          if (description) progress.write(`· ${description}\n`);
        },
        {
          ...(trace ? { onModelCall: trace.write } : {}),
          ...(printer ? { onText: printer.write } : {}),
        },
      ).finally(() => {
        trace?.close();
        return conversations.forgetThread?.(threadId);
      });
      const result = options.json ? await turn.catch(printFailure(context.output)) : await turn;
      if (options.json)
        context.output.write(`${JSON.stringify({ outcome: outcomeOf(result), ...result }, null, 2)}\n`);
      else if (printer?.printed()) context.output.write(printer.rest(result, renderTurnResult));
      else context.output.write(`${renderTurnResult(result).trim()}\n`);
      if (result.kind !== 'answer') process.exitCode = 2;
    });
}

/** With --json a failed turn is JSON too (`outcome: failed` and its error), then fails the command. */
function printFailure(output: NodeJS.WritableStream) {
  return (error: unknown): never => {
    const failure = toRagentError(error, errorMessageOpenings.answeringFailed());
    const json = { outcome: 'failed', error: { code: failure.code, message: failure.message } };
    output.write(`${JSON.stringify(json, null, 2)}\n`);
    throw failure;
  };
}

/** The trace file, opened for appending before the turn starts (so a bad path fails before any model call). */
function openTrace(file: string): { write(call: ModelCallRecord): void; close(): void } {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'a');
  } catch (error) {
    throw new RagentError(
      'INVALID_INPUT',
      errorMessages.INVALID_INPUT.traceFileUnwritable({ file, reason: describeError(error) }),
      {
        cause: error,
      },
    );
  }
  return {
    write: (call) => {
      writeSync(descriptor, `${JSON.stringify(call)}\n`);
    },
    close: () => closeSync(descriptor),
  };
}

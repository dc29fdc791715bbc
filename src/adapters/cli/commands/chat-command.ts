/**
 * `ragent chat [--scope S] [--thread NAME]`: a conversation in the terminal on the same graph the chat
 * platforms use. Progress shows as it happens; a clarification question is answered on the next line;
 * the thread (`cli:<name>`) is checkpointed, so `ragent chat --thread NAME` resumes it later.
 */
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { ProgressEvent, TurnResult } from '../../../core/types.ts';
import { errorMessages } from '../../../error-messages-en.ts';
import { RagentError } from '../../../errors.ts';
import { describeProgress as statusLine } from '../../../turns/messages-en.ts';
import type { CliContext } from '../cli-context.ts';
import { type CliTurnServices, handleAndRecord } from '../record-cli-turn.ts';
import { renderCliError } from '../render-cli-error.ts';
import { createStreamPrinter } from '../stream-printer.ts';

export interface ChatCommandOptions {
  scope: string;
  thread: string;
}

export interface ChatInput {
  /** Where lines are read from (default: stdin). */
  input?: NodeJS.ReadableStream;
}

const exitWords = new Set(['exit', 'quit', '/exit', '/quit', ':q']);

export function registerChatCommand(program: Command, context: CliContext, io: ChatInput = {}): void {
  program
    .command('chat')
    .description('Chat with your documents in the terminal (resumable by thread name)')
    .option('-s, --scope <scope>', 'which documents to search', 'shared')
    .option('-t, --thread <name>', 'conversation name; the same name resumes it', 'default')
    .action(async (options: ChatCommandOptions) => {
      const threadId = cliThreadId(options.thread);
      const scope = checkScope(options.scope);
      const { conversations, turnHistory, logger } = await context.services();
      await runChat({
        conversations,
        turnHistory,
        logger,
        threadId,
        scope,
        input: io.input ?? process.stdin,
        output: context.output,
      });
    });
}

export function cliThreadId(name: string): string {
  const trimmed = name.trim();
  if (!/^[\w.-]{1,64}$/.test(trimmed)) {
    throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.threadNameInvalid({ name }));
  }
  return `cli:${trimmed}`;
}

export function checkScope(scope: string): string {
  const trimmed = scope.trim();
  if (!trimmed) throw new RagentError('INVALID_INPUT', errorMessages.INVALID_INPUT.chatScopeEmpty());
  return trimmed;
}

interface ChatSession extends CliTurnServices {
  threadId: string;
  scope: string;
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

async function runChat(session: ChatSession): Promise<void> {
  const { conversations, threadId, scope, output } = session;
  const resumed = await conversations.hasThread(threadId);
  output.write(
    `${resumed ? 'Resuming' : 'Starting'} thread "${threadId.slice(4)}" (documents: ${scope}). Type your question; "exit" or Ctrl-D ends.\n`,
  );
  const lines = createInterface({
    input: session.input,
    crlfDelay: Number.POSITIVE_INFINITY,
    terminal: false,
  });
  const prompt = () => output.write('> ');
  prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (exitWords.has(text.toLowerCase())) break;
    if (!text) {
      prompt();
      continue;
    }
    try {
      // The answer prints as it is written; the result then completes it (sources).
      const printer = createStreamPrinter(output);
      const result = await handleAndRecord(
        session,
        { threadId, scopes: [scope], user: 'cli', text },
        (event) => {
          const description = describeProgress(event);
          if (description) output.write(`  · ${description}\n`);
        },
        { onText: printer.write },
      );
      output.write(
        printer.printed() ? printer.rest(result, renderTurnResult) : `${renderTurnResult(result)}\n`,
      );
    } catch (error) {
      output.write(`${renderCliError(error)}\n`);
    }
    prompt();
  }
  lines.close();
  output.write('\n');
}

export function renderTurnResult(result: TurnResult): string {
  switch (result.kind) {
    case 'answer':
      return `\n${result.answer.markdown}\n`;
    case 'clarification':
      return `\n? ${result.question}\n`;
    case 'stopped':
      return `\n${result.message}\n`;
  }
}

/** One short line per progress event (the chat platforms' wording, without the trailing ellipsis). */
export function describeProgress(event: ProgressEvent): string | undefined {
  return statusLine(event)?.replace(/…$/, '');
}

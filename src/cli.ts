/**
 * The `ragent` command. Each subcommand lives in its own file under adapters/cli/commands and calls
 * the same services as the chat adapters.
 */
import { Command, CommanderError } from 'commander';
import { createCliContext } from './adapters/cli/cli-context.ts';
import { registerAnswersCommand } from './adapters/cli/commands/answers-command.ts';
import { registerAskCommand } from './adapters/cli/commands/ask-command.ts';
import { registerBackupCommand } from './adapters/cli/commands/backup-command.ts';
import { registerChatCommand } from './adapters/cli/commands/chat-command.ts';
import { registerDocsCommand } from './adapters/cli/commands/docs-command.ts';
import { registerDoctorCommand } from './adapters/cli/commands/doctor-command.ts';
import { registerEvalCommand } from './adapters/cli/commands/eval-command.ts';
import { registerFeedbackCommand } from './adapters/cli/commands/feedback-command.ts';
import { registerIngestCommand } from './adapters/cli/commands/ingest-command.ts';
import { registerMcpCommand } from './adapters/cli/commands/mcp-command.ts';
import { registerReindexCommand } from './adapters/cli/commands/reindex-command.ts';
import { registerReportCommand } from './adapters/cli/commands/report-command.ts';
import { registerSearchCommand } from './adapters/cli/commands/search-command.ts';
import { registerStartCommand } from './adapters/cli/commands/start-command.ts';
import { renderCliError } from './adapters/cli/render-cli-error.ts';
import { platformModules } from './platforms/registry.ts';

export function buildProgram(context = createCliContext()): Command {
  const program = new Command('ragent')
    .description(
      `An agentic RAG chat bot for ${platformModules.map((platform) => platform.label).join(' and ')} that answers from your own PDFs.`,
    )
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  registerStartCommand(program, context);
  registerDoctorCommand(program, context);
  registerIngestCommand(program, context);
  registerDocsCommand(program, context);
  registerReindexCommand(program, context);
  registerSearchCommand(program, context);
  registerEvalCommand(program, context);
  registerChatCommand(program, context);
  registerAskCommand(program, context);
  // Each chat platform's own subcommands (`ragent discord register`, …).
  for (const platform of platformModules) platform.registerCommands?.(program, context);
  registerBackupCommand(program, context);
  registerFeedbackCommand(program, context);
  registerReportCommand(program, context);
  registerAnswersCommand(program, context);
  registerMcpCommand(program, context);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  const context = createCliContext();
  const program = buildProgram(context);
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`${renderCliError(error)}\n`);
      process.exitCode = 1;
    }
  } finally {
    await context.close().catch(() => {});
  }
}

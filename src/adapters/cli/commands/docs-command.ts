import type { Command } from 'commander';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

// Placeholder until issue #3 builds this command.
export function registerDocsCommand(program: Command, _context: CliContext): void {
  program.command('docs').action(() => {
    throw new RagentError('INTERNAL', 'ragent docs is not built yet (issue #3).');
  });
}

import type { Command } from 'commander';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

// Placeholder until issue #4 builds this command.
export function registerAskCommand(program: Command, _context: CliContext): void {
  program.command('ask').action(() => {
    throw new RagentError('INTERNAL', 'ragent ask is not built yet (issue #4).');
  });
}

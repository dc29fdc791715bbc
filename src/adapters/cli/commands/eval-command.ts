import type { Command } from 'commander';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

// Placeholder until issue #3 builds this command.
export function registerEvalCommand(program: Command, _context: CliContext): void {
  program.command('eval').action(() => {
    throw new RagentError('INTERNAL', 'ragent eval is not built yet (issue #3).');
  });
}

import type { Command } from 'commander';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

// Placeholder until issue #2 builds this command.
export function registerStartCommand(program: Command, _context: CliContext): void {
  program.command('start').action(() => {
    throw new RagentError('INTERNAL', 'ragent start is not built yet (issue #2).');
  });
}

import type { Command } from 'commander';
import { RagentError } from '../../../errors.ts';
import type { CliContext } from '../cli-context.ts';

// Placeholder until issue #6 builds this command.
export function registerDiscordCommand(program: Command, _context: CliContext): void {
  program.command('discord').action(() => {
    throw new RagentError('INTERNAL', 'ragent discord is not built yet (issue #6).');
  });
}

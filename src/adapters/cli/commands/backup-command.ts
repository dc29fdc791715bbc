/** `ragent backup <dir>`: an online copy of the data directory's databases (safe while ragent runs). */
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.ts';

export function registerBackupCommand(program: Command, context: CliContext): void {
  program
    .command('backup')
    .description('Copy the index, checkpoints and bot state into a directory (safe while ragent runs)')
    .argument('<directory>', 'a new or empty directory for the copies')
    .action(async (directory: string) => {
      const config = context.config();
      const target = path.resolve(directory);
      const { backupDataDir } = await import('../../../backup/backup-data-dir.ts');
      const copied = await backupDataDir(config.dataDir, target);
      for (const file of copied) {
        context.output.write(`✓ ${file.name}  ${(file.bytes / 1024 / 1024).toFixed(1)} MB\n`);
      }
      context.output.write(`Backed up ${config.dataDir} to ${target}.\n`);
      if (config.qdrant) {
        (context.progress ?? process.stderr).write(
          `The vectors live in Qdrant (collection ${config.qdrant.collection}): snapshot it too (see docs/production.md).\n`,
        );
      }
    });
}

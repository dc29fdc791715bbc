/**
 * `ragent start` (also `npm start`): runs the bot on every configured platform until SIGINT/SIGTERM.
 * With no platform configured it explains exactly what to set instead of failing.
 */
import type { Command } from 'commander';
import { createLogger } from '../../../logger.ts';
import { platformModules } from '../../../platforms/registry.ts';
import type { CliContext } from '../cli-context.ts';
import type { PlatformPlan } from '../start-bot.ts';

export function registerStartCommand(program: Command, context: CliContext): void {
  program
    .command('start')
    .description('Run the bot on every chat platform whose credentials are configured (npm start)')
    .action(async () => {
      const config = context.config();
      // The bot logs its life cycle at info level unless LOG_LEVEL says otherwise.
      const logger = createLogger({ level: config.logLevel ?? 'info', secrets: config.secrets });
      // Loaded here, not at the top: the chat platform libraries are heavy and other commands need none.
      const { startBot } = await import('../start-bot.ts');
      const result = await startBot({ config, logger });
      if (result.status === 'no-platform') {
        context.output.write(noPlatformGuidance(result.plan));
        // Nothing set at all is a normal first run; a half-set platform is a mistake to fix.
        process.exitCode = result.plan.incomplete.length > 0 ? 1 : 0;
        return;
      }
      const names = result.platforms
        .map((name) => platformModules.find((platform) => platform.name === name)?.label ?? name)
        .join(' and ');
      context.output.write(
        `ragent is running on ${names} (data directory: ${config.dataDir}). Press Ctrl-C to stop.\n`,
      );
      const exitCode = await result.stopped;
      process.exitCode = exitCode;
      // Everything is closed; if a library still holds the event loop open, do not hang on it.
      setTimeout(() => process.exit(exitCode), 2_000).unref();
    });
}

export function noPlatformGuidance(plan: PlatformPlan): string {
  const lines = ['ragent: no chat platform is configured, so there is nothing to start.', ''];
  if (plan.incomplete.length > 0) {
    lines.push('Half configured:');
    for (const problem of plan.incomplete) lines.push(`  - ${problem}`);
    lines.push('');
  }
  lines.push(
    'Set the variables of at least one platform, in the environment or in a .env file',
    '(cp .env.example .env, then edit it):',
    '',
    ...platformModules.flatMap((platform) => [...platform.setupHelp, '']),
    'Then run npm start again. Meanwhile, use your documents from the terminal:',
    '  npx ragent doctor              check Ollama, the models and the data directory',
    '  npx ragent ingest <file.pdf>   add a document',
    '  npx ragent chat                a local conversation with your documents',
    '',
  );
  return lines.join('\n');
}

/**
 * What every CLI command gets: the config (parsed on first use, so `--help` never needs it),
 * a logger, and the services, built once by the composition root and closed on exit.
 */
import { type Config, loadConfig } from '../../config.ts';
import { createLogger, type Logger } from '../../logger.ts';
import type { AppServices as Services } from '../../main.ts';

export interface CliContext {
  config(): Config;
  logger(): Logger;
  /** Builds the services on first call; `close()` closes them. */
  services(): Promise<Services>;
  close(): Promise<void>;
  /** Where commands print their results (stdout): answers, tables, summary lines, JSON. */
  output: NodeJS.WritableStream;
  /** Where progress and notices go (default stderr), so stdout holds only results. */
  progress?: NodeJS.WritableStream;
}

export function createCliContext(environment: Record<string, string | undefined> = process.env): CliContext {
  let config: Config | undefined;
  let logger: Logger | undefined;
  let services: Promise<Services> | undefined;
  const context: CliContext = {
    config: () => {
      config ??= loadConfig(environment);
      return config;
    },
    logger: () => {
      const current = context.config();
      // Commands print their own errors clearly; the log only adds unexpected ones (LOG_LEVEL overrides).
      logger ??= createLogger({ level: current.logLevel ?? 'error', secrets: current.secrets });
      return logger;
    },
    services: () => {
      // Loaded on first use: `--help` and `doctor` never pay for the stores; the answer graph loads
      // on the first question only (`docs list`, `search` and `ingest` never load LangGraph).
      services ??= import('../../main.ts').then(({ createServices }) =>
        createServices(context.config(), context.logger(), { conversationsOnFirstUse: true }),
      );
      return services;
    },
    close: async () => {
      if (services) await (await services).close();
    },
    output: process.stdout,
    progress: process.stderr,
  };
  return context;
}

/**
 * Bolt's and the Web API client's logs, sent through our pino logger (which scrubs tokens).
 * Our log level rules; Bolt cannot change it.
 */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../logger.ts';

export function createBoltLogger(logger: Logger): BoltLogger {
  const write =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...parts: unknown[]) => {
      if (!logger.isLevelEnabled(level)) return;
      logger[level](parts.map((part) => (typeof part === 'string' ? part : safeStringify(part))).join(' '));
    };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    setLevel: () => {},
    getLevel: () => {
      if (logger.isLevelEnabled('debug')) return LogLevel.DEBUG;
      if (logger.isLevelEnabled('info')) return LogLevel.INFO;
      if (logger.isLevelEnabled('warn')) return LogLevel.WARN;
      return LogLevel.ERROR;
    },
    setName: () => {},
  };
}

function safeStringify(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

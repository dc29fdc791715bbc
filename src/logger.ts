/**
 * Structured logging with pino. Secrets are scrubbed twice: by key (token, authorization, …)
 * and by value (every secret in the config, and anything shaped like a chat platform's token: each
 * platform's settings name its token shapes).
 */
import pino, { type Logger } from 'pino';
import { platformSecretPatterns } from './platform-settings/settings-registry.ts';

export type { Logger } from 'pino';

export interface LoggerOptions {
  level: string;
  /** Exact secret values to remove wherever they appear. */
  secrets?: readonly string[];
  /** Where to write (default: stderr, so a CLI's stdout stays clean). */
  destination?: pino.DestinationStream;
}

const tokenPatterns = [/(?:Bearer|Bot)\s+[A-Za-z0-9._-]{16,}/g, ...platformSecretPatterns];

const redactedKeys = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'apiKey',
  'api_key',
  'authorization',
  'Authorization',
  'password',
  'headers.authorization',
  'headers.Authorization',
  'config.headers.Authorization',
  '*.token',
  '*.botToken',
  '*.appToken',
  '*.signingSecret',
  '*.apiKey',
  '*.authorization',
];

export function createScrubber(secrets: readonly string[] = []): (text: string) => string {
  const exact = secrets.filter((secret) => secret.length >= 6);
  return (text: string) => {
    let result = text;
    for (const secret of exact) result = result.split(secret).join('[redacted]');
    // A pattern's capture group (a URL path before its token) stays readable.
    for (const pattern of tokenPatterns)
      result = result.replace(pattern, (...match: unknown[]) =>
        typeof match[1] === 'string' ? `${match[1]}[redacted]` : '[redacted]',
      );
    return result;
  };
}

function scrubValue(value: unknown, scrub: (text: string) => string, depth: number): unknown {
  if (typeof value === 'string') return scrub(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrub(value.message),
      code: (value as { code?: unknown }).code,
      details: scrubValue((value as { details?: unknown }).details, scrub, depth + 1),
      stack: value.stack ? scrub(value.stack) : undefined,
      cause: value.cause === undefined ? undefined : scrubValue(value.cause, scrub, depth + 1),
    };
  }
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, scrub, depth + 1));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[key] = scrubValue(item, scrub, depth + 1);
  return result;
}

export function createLogger(options: LoggerOptions): Logger {
  const scrub = createScrubber(options.secrets);
  return pino(
    {
      level: options.level,
      base: { app: 'ragent' },
      redact: { paths: redactedKeys, censor: '[redacted]' },
      // Errors are already turned into scrubbed plain objects by the log formatter below.
      serializers: { err: (value: unknown) => value },
      formatters: {
        log: (object) => scrubValue(object, scrub, 0) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          // `logger.error(error)` makes pino use the error's message as `msg`, past the formatters.
          const [first, ...rest] = args as unknown[];
          const normalised =
            first instanceof Error && typeof rest[0] !== 'string' ? [{ err: first }, first.message] : args;
          const cleaned = normalised.map((argument) =>
            typeof argument === 'string' ? scrub(argument) : argument,
          );
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? pino.destination(2),
  );
}

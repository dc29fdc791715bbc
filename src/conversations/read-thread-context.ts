/**
 * Reads a thread the bot joins, once per turn that starts the bot's conversation there: never for a
 * thread it already converses in (its own memory has the thread), never when turned off. A failure —
 * a missing permission, a refusal, a timeout — never blocks the answer: the turn goes on without the
 * thread, and each kind of failure is logged once at warning level (then at debug), so a missing
 * scope does not flood the log.
 */
import type { ThreadMessage } from '../core/types.ts';
import { describeError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { fitThread, formatThread, type ThreadContextLimits } from './thread-context.ts';

export interface ThreadReaderOptions extends ThreadContextLimits {
  logger: Logger;
  /** How long reading may take before the turn goes on without it (default 10 s). */
  timeoutMs?: number;
}

export type ReadThread = (limit: number) => Promise<ThreadMessage[]>;

/** Returns the thread as the prompts show it, or undefined (nothing before, off, or unreadable). */
export function createThreadReader(options: ThreadReaderOptions) {
  const warned = new Set<string>();
  const timeoutMs = options.timeoutMs ?? 10_000;
  return async (read: ReadThread, fields: Record<string, string>): Promise<string | undefined> => {
    if (options.messages <= 0) return undefined;
    let timer: NodeJS.Timeout | undefined;
    try {
      const messages = await Promise.race([
        read(options.messages),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new Error(`reading the thread took longer than ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
      const context = fitThread(messages, options);
      if (context.messages.length === 0) return undefined;
      options.logger.debug(
        { ...fields, messages: context.messages.length, omitted: context.omitted },
        'read the thread the bot joins',
      );
      return formatThread(context);
    } catch (error) {
      const reason = describeError(error);
      const level = warned.has(reason) ? 'debug' : 'warn';
      warned.add(reason);
      options.logger[level](
        { ...fields, error: reason },
        'could not read the thread the bot was asked in; answering without it (check the bot can read its history)',
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  };
}

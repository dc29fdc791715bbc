/**
 * RAGENT_RETENTION_DAYS on the turn history: a question's text is kept that many days, then cleared
 * (its outcome, scope, time and cited documents stay for the report); with 0 it is never stored.
 * Old texts are cleared when the records open and then every hour, so a process that runs for months
 * keeps the promise too. The timer never keeps the process alive.
 */
import type { TurnHistory } from '../core/turn-history.ts';
import type { Logger } from '../logger.ts';

const dayMs = 24 * 60 * 60 * 1000;
const hourMs = 60 * 60 * 1000;

export interface RetentionOptions {
  retentionDays: number;
  logger: Logger;
  /** How often old question texts are cleared (default hourly). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** The records with the retention applied: questions cleared on a timer, never stored with 0 days. */
export function withRetention(records: TurnHistory, options: RetentionOptions): TurnHistory {
  const { retentionDays, logger } = options;
  const now = options.now ?? Date.now;
  const clearOld = async () => {
    try {
      const cleared = await records.forgetQuestionsBefore(
        new Date(now() - retentionDays * dayMs).toISOString(),
      );
      if (cleared > 0) logger.info({ cleared, retentionDays }, 'cleared question texts past retention');
    } catch (error) {
      logger.warn({ err: error }, 'could not clear question texts past retention; will try again');
    }
  };
  let running = clearOld();
  const timer = setInterval(() => {
    running = running.then(clearOld);
  }, options.intervalMs ?? hourMs);
  timer.unref();
  return {
    recordTurn: (record) => records.recordTurn(retentionDays === 0 ? { ...record, question: '' } : record),
    listTurns: (query) => records.listTurns(query),
    forgetQuestionsBefore: (before) => records.forgetQuestionsBefore(before),
    close: async () => {
      clearInterval(timer);
      await running;
      await records.close();
    },
  };
}

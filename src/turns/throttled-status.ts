/**
 * Status edits a person can follow without the platform throttling the bot: per surface, at most
 * one edit per interval, the latest status always wins and an identical one is skipped; and per
 * platform, one token bucket that every surface draws from — when it is spent, a progress edit is
 * simply skipped (the next one may get through). Final replies never go through here and never wait.
 * Edits of one surface never overlap; `settle` lets the final reply come after the last edit.
 */
import type { ReplySurface, Status } from '../core/chat-platform.ts';

/** A token bucket: `perMinute` tokens a minute, at most `burst` saved up. */
export interface RateBudget {
  /** True if an edit may be sent now (and counts it). */
  tryTake(): boolean;
}

export function createRateBudget(perMinute: number, burst: number, now: () => number = Date.now): RateBudget {
  let tokens = burst;
  let last = now();
  return {
    tryTake: () => {
      const current = now();
      tokens = Math.min(burst, tokens + ((current - last) / 60_000) * perMinute);
      last = current;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

export interface ThrottledStatus {
  /** Shows `status` soon: now if the interval allows, else when it does (unless a newer one comes). */
  show(status: Status): void;
  /** Drops any pending status and waits for the edit in flight. */
  settle(): Promise<void>;
}

export function throttleStatus(
  surface: ReplySurface,
  options: {
    intervalMs: number;
    budget: RateBudget;
    onError: (error: unknown) => void;
    /** While true, progress yields to more urgent traffic (acknowledgements of others) and is skipped. */
    yielding?: () => boolean;
  },
): ThrottledStatus {
  const { intervalMs, budget, onError, yielding } = options;
  let pending: Status | undefined;
  let lastShown: string | undefined;
  // The surface was opened with a status just now: the first edit waits its interval.
  let lastAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let settled = false;

  const send = () => {
    timer = undefined;
    const status = pending;
    pending = undefined;
    if (settled || !status) return;
    const key = JSON.stringify(status);
    if (key === lastShown || yielding?.() || !budget.tryTake()) return;
    lastShown = key;
    lastAt = Date.now();
    running = running.then(() => surface.showStatus(status)).then(undefined, onError);
  };

  return {
    show: (status) => {
      if (settled) return;
      pending = status;
      if (timer) return;
      const wait = lastAt + intervalMs - Date.now();
      if (wait <= 0) send();
      else timer = setTimeout(send, wait);
    },
    settle: async () => {
      settled = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
      await running;
    },
  };
}

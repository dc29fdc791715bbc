/**
 * Status edits a person can follow without the platform throttling the bot: per surface, at most
 * one edit per interval, the latest status always wins and an identical one is skipped; and per
 * platform, token buckets that every surface draws from — when one is spent, a progress edit is
 * simply skipped (the next one may get through). Final replies never go through here and never wait.
 * Edits of one surface never overlap; `settle` lets the final reply come after the last edit.
 *
 * First text first: an answer that has not shown any text yet holds a claim on its bucket, and a
 * later edit (progress, the next piece of another answer) leaves that many tokens in the bucket
 * (at most all but two), so the first text of every waiting answer goes out before them.
 */
import type { ReplySurface, Status } from '../core/chat-platform.ts';

/** A token bucket: `perMinute` tokens a minute, at most `burst` saved up. */
export interface RateBudget {
  /** True if a later edit may be sent now (and counts it): it leaves the tokens first texts hold. */
  tryTake(): boolean;
  /** True if a first text may be sent now (and counts it): before every later edit. */
  tryTakeFirst(): boolean;
  /**
   * Counts an edit that goes out regardless (a final reply never waits): the bucket may go into
   * debt (at most one burst), so the progress edits that follow leave room for it.
   */
  charge(): void;
  /** An answer that will show its first text: later edits leave a token for it until `release`. */
  holdForFirst(): { release(): void };
}

/**
 * A platform's rate shared out among the replicas that use it (one process: `share` is 1): this
 * replica's part of `amount`, at least `minimum`. Every budget and limit of a platform is divided here.
 */
export function shareOf(amount: number, share: number, minimum = 1): number {
  return Math.max(minimum, amount * Math.min(1, Math.max(0, share)));
}

/**
 * `share()` is this replica's part of the platform's budget (1 / live replicas; read at each refill),
 * so N replicas together stay within `perMinute`, not N times it.
 */
export function createRateBudget(
  perMinute: number,
  burst: number,
  now: () => number = Date.now,
  share: () => number = () => 1,
): RateBudget {
  let tokens = shareOf(burst, share());
  let last = now();
  let holders = 0;
  const refill = () => {
    const current = now();
    const part = share();
    const cap = shareOf(burst, part);
    tokens = Math.min(cap, tokens + ((current - last) / 60_000) * shareOf(perMinute, part, 0));
    last = current;
  };
  const take = (keep: number) => {
    refill();
    if (tokens < 1 + keep) return false;
    tokens -= 1;
    return true;
  };
  return {
    tryTake: () => take(Math.min(holders, Math.max(0, Math.floor(shareOf(burst, share())) - 2))),
    tryTakeFirst: () => take(0),
    charge: () => {
      refill();
      tokens = Math.max(-shareOf(burst, share()), tokens - 1);
    },
    holdForFirst: () => {
      holders++;
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          holders--;
        },
      };
    },
  };
}

export interface ThrottledStatus {
  /** Shows `status` soon: now if the interval allows, else when it does (unless a newer one comes). */
  show(status: Status): void;
  /** Drops any pending status and waits for the edit in flight. */
  settle(): Promise<void>;
}

export interface ThrottleOptions<T = Status> {
  /** Minimum time between two edits (may depend on the next item). */
  intervalMs: number | ((item: T) => number);
  budget: RateBudget;
  /** How an item takes its token (default: `budget.tryTake`, a later edit). */
  take?: (item: T) => boolean;
  onError: (error: unknown) => void;
  /** While true, progress yields to more urgent traffic (acknowledgements of others) and is skipped. */
  yielding?: () => boolean;
}

export function throttleStatus(surface: ReplySurface, options: ThrottleOptions): ThrottledStatus {
  return throttleEdits<Status>((status) => surface.showStatus(status), options);
}

export interface ThrottledEdits<T> {
  /**
   * Shows `item` soon: now if the interval allows, else when it does (unless a newer one comes).
   * `urgent` sends it at once, whatever the interval; `keep` retries it (latest wins) when the budget
   * or `yielding` turned it away, instead of dropping it.
   */
  show(item: T, how?: { urgent?: boolean; keep?: boolean }): void;
  /** Drops any pending item and waits for the edit in flight. */
  settle(): Promise<void>;
}

/** Latest-wins edits of one surface through `send`, at most one per interval, under the platform's budget. */
export function throttleEdits<T>(
  send: (item: T) => Promise<void>,
  options: ThrottleOptions<T>,
): ThrottledEdits<T> {
  const { budget, onError, yielding } = options;
  const take = options.take ?? (() => budget.tryTake());
  const intervalOf = (item: T) =>
    typeof options.intervalMs === 'number' ? options.intervalMs : options.intervalMs(item);
  let pending: { item: T; keep: boolean } | undefined;
  let lastShown: string | undefined;
  // The surface was opened with a status just now: the first edit waits its interval.
  let lastAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let settled = false;

  const schedule = (wait: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, Math.max(0, wait));
  };

  const flush = () => {
    timer = undefined;
    const next = pending;
    pending = undefined;
    if (settled || !next) return;
    const key = JSON.stringify(next.item);
    if (key === lastShown) return;
    if (yielding?.() || !take(next.item)) {
      if (next.keep) {
        pending = next;
        schedule(Math.min(intervalOf(next.item), 250));
      }
      return;
    }
    lastShown = key;
    lastAt = Date.now();
    running = running.then(() => send(next.item)).then(undefined, onError);
  };

  return {
    show: (item, how = {}) => {
      if (settled) return;
      pending = { item, keep: how.keep ?? false };
      if (how.urgent) {
        if (timer) clearTimeout(timer);
        flush();
        return;
      }
      if (timer) return;
      const wait = lastAt + intervalOf(item) - Date.now();
      if (wait <= 0) flush();
      else schedule(wait);
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

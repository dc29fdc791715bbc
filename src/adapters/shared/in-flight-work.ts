/**
 * Keeps track of the background work an adapter started after acknowledging an event (a turn, an
 * ingest), so that shutting down can wait for it — for a bounded time.
 */
export interface InFlightWork {
  /** Runs `work` in the background; its rejection is passed to `onError` (never unhandled). */
  run(work: () => Promise<void>, onError: (error: unknown) => void): void;
  /** How many pieces of work are running. */
  readonly size: number;
  /** Resolves true when all work has finished, false when `timeoutMs` passed first. */
  drain(timeoutMs: number): Promise<boolean>;
}

export function createInFlightWork(): InFlightWork {
  const running = new Set<Promise<void>>();
  return {
    run: (work, onError) => {
      const promise: Promise<void> = Promise.resolve()
        .then(work)
        .catch(onError)
        .finally(() => running.delete(promise));
      running.add(promise);
    },
    get size() {
      return running.size;
    },
    drain: async (timeoutMs) => {
      if (running.size === 0) return true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const done = (async () => {
        while (running.size > 0) await Promise.allSettled([...running]);
        return true as const;
      })();
      const result = await Promise.race([done, timeout]);
      clearTimeout(timer);
      return result;
    },
  };
}

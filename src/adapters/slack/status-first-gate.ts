/**
 * Puts "the bot is working" in front of the work itself. During a burst of mentions, turns that
 * already showed their status wait (briefly, bounded) until the statuses of the newer mentions are
 * posted, so that the CPU the graph needs does not delay everyone else's first sign of life.
 */
export interface StatusFirstGate {
  /** Marks a status as being posted; call the returned function once it is visible (or failed). */
  posting(): () => void;
  /** Resolves when no status is being posted, or after `maxWaitMs`. */
  clear(maxWaitMs: number): Promise<void>;
}

export function createStatusFirstGate(): StatusFirstGate {
  let pending = 0;
  let waiters: Array<() => void> = [];
  const release = () => {
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  return {
    posting: () => {
      pending++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        pending--;
        if (pending === 0) release();
      };
    },
    clear: (maxWaitMs) => {
      if (pending === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxWaitMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

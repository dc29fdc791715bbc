/**
 * Acknowledge first, think second. When many people mention the bot at once, each needs a sign of
 * life in their thread quickly (a status, a placeholder, a thread), but the graph work of the first
 * turns would otherwise hog the event loop and delay everyone else's. Turns that already showed
 * their status therefore wait (briefly, bounded by the caller) until every pending acknowledgement
 * has gone out. The total work is the same; it is only reordered.
 */
export interface AcknowledgementGate {
  /** An acknowledgement is being sent; call the result once it is visible (or failed). Idempotent. */
  begin(): () => void;
  /** Whether acknowledgements are being sent (optional traffic, like progress edits, should wait). */
  busy(): boolean;
  /** Resolves when no acknowledgement is pending, or after `maxWaitMs`. */
  clear(maxWaitMs: number): Promise<void>;
}

export function createAcknowledgementGate(): AcknowledgementGate {
  let pending = 0;
  let waiters: Array<() => void> = [];
  const release = () => {
    const ready = waiters;
    waiters = [];
    for (const waiter of ready) waiter();
  };
  return {
    begin: () => {
      pending++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        pending--;
        if (pending === 0) release();
      };
    },
    busy: () => pending > 0,
    clear: async (maxWaitMs) => {
      if (pending === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        timer = setTimeout(resolve, maxWaitMs);
      });
      clearTimeout(timer);
    },
  };
}

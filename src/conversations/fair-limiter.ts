/**
 * A global limit on concurrent LLM calls, shared fairly: when a slot frees, it goes to the next thread
 * in turn (round robin), not to whichever thread queued most calls.
 */

export interface FairLimiter {
  /** Waits for a slot for `key` (a thread id); `onWait` runs once if it has to wait. Resolves to release. */
  acquire(key: string, options?: { onWait?: () => void; signal?: AbortSignal }): Promise<() => void>;
  active(): number;
  waiting(): number;
}

interface Waiter {
  grant: () => void;
  cancel: () => void;
}

export function createFairLimiter(capacity: number): FairLimiter {
  let running = 0;
  const queues = new Map<string, Waiter[]>();
  /** Keys with waiters, in serving order. */
  const turn: string[] = [];

  const next = () => {
    while (running < capacity && turn.length > 0) {
      const key = turn.shift()!;
      const queue = queues.get(key);
      const waiter = queue?.shift();
      if (!queue || !waiter) continue;
      if (queue.length > 0) turn.push(key);
      else queues.delete(key);
      running++;
      waiter.grant();
    }
  };

  const makeRelease = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      next();
    };
  };

  return {
    acquire(key, options = {}) {
      if (running < capacity && turn.length === 0) {
        running++;
        return Promise.resolve(makeRelease());
      }
      options.onWait?.();
      return new Promise((resolve, reject) => {
        const signal = options.signal;
        const onAbort = () => waiter.cancel();
        const waiter: Waiter = {
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(makeRelease());
          },
          cancel: () => {
            const queue = queues.get(key);
            const position = queue?.indexOf(waiter) ?? -1;
            if (queue && position >= 0) {
              queue.splice(position, 1);
              if (queue.length === 0) {
                queues.delete(key);
                const at = turn.indexOf(key);
                if (at >= 0) turn.splice(at, 1);
              }
            }
            reject(signal?.reason ?? new Error('aborted'));
          },
        };
        const queue = queues.get(key);
        if (queue) queue.push(waiter);
        else {
          queues.set(key, [waiter]);
          turn.push(key);
        }
        if (signal?.aborted) waiter.cancel();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    active: () => running,
    waiting: () => [...queues.values()].reduce((sum, queue) => sum + queue.length, 0),
  };
}

/**
 * One run per thread at a time: a message that arrives while the thread is busy waits its turn and runs
 * after, never dropped. Different threads run independently.
 */

export interface ThreadQueue {
  /** Runs `task` once every earlier task of `key` has settled; `onQueued(position)` if it must wait. */
  run<T>(key: string, task: () => Promise<T>, onQueued?: (position: number) => void): Promise<T>;
  /** Resolves when no task of any thread is running or waiting. */
  idle(): Promise<void>;
  size(): number;
}

export function createThreadQueue(): ThreadQueue {
  const tails = new Map<string, { tail: Promise<unknown>; count: number }>();

  return {
    run(key, task, onQueued) {
      const entry = tails.get(key);
      if (entry && entry.count > 0) onQueued?.(entry.count);
      const previous = entry?.tail ?? Promise.resolve();
      const current = entry ?? { tail: previous, count: 0 };
      current.count++;
      const result = previous.then(
        () => task(),
        () => task(),
      );
      const settled = result.then(
        () => undefined,
        () => undefined,
      );
      current.tail = settled;
      tails.set(key, current);
      void settled.then(() => {
        current.count--;
        if (current.count === 0 && tails.get(key) === current) tails.delete(key);
      });
      return result;
    },
    async idle() {
      while (tails.size > 0) await Promise.all([...tails.values()].map((entry) => entry.tail));
    },
    size: () => [...tails.values()].reduce((sum, entry) => sum + entry.count, 0),
  };
}

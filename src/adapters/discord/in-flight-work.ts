/**
 * The work an adapter has in flight (turns, commands), so that stopping can wait for it, bounded,
 * and tell the people whose work did not finish in time.
 */
export interface InFlightWork {
  /** Tracks `work`; `onAbandon` runs if the work is still going when the drain gives up. */
  track(work: Promise<unknown>, onAbandon?: () => Promise<void>): void;
  size(): number;
  /** Waits up to `timeoutMs` for everything tracked; returns how many were abandoned. */
  drain(timeoutMs: number): Promise<number>;
}

export function createInFlightWork(): InFlightWork {
  const entries = new Set<{ work: Promise<unknown>; onAbandon: (() => Promise<void>) | undefined }>();
  return {
    track: (work, onAbandon) => {
      const entry = { work, onAbandon };
      entries.add(entry);
      work.then(
        () => entries.delete(entry),
        () => entries.delete(entry),
      );
    },
    size: () => entries.size,
    drain: async (timeoutMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...entries].map((entry) => entry.work)), timeout]);
      clearTimeout(timer);
      const abandoned = [...entries];
      await Promise.allSettled(abandoned.map((entry) => entry.onAbandon?.()));
      return abandoned.length;
    },
  };
}

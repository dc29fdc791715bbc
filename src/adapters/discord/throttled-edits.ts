/**
 * Edits one message with the latest text at most once per interval: progress arrives much faster
 * than Discord lets a bot edit a message, and only the newest line matters. Edits never overlap.
 */
export interface ThrottledEdits {
  update(text: string): void;
  /** Drops any pending text and waits for the edit in flight, so a final edit comes after it. */
  close(): Promise<void>;
}

export function throttledEdits(
  apply: (text: string) => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): ThrottledEdits {
  let pending: string | undefined;
  let lastText: string | undefined;
  let lastAt = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const flush = () => {
    timer = undefined;
    if (closed || pending === undefined) return;
    const text = pending;
    pending = undefined;
    lastText = text;
    lastAt = Date.now();
    running = running.then(() => apply(text)).then(() => undefined, onError);
  };

  return {
    update: (text) => {
      if (closed || text === lastText) return;
      pending = text;
      if (timer) return;
      timer = setTimeout(flush, Math.max(0, lastAt + intervalMs - Date.now()));
    },
    close: async () => {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

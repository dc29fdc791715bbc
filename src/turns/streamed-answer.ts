/**
 * What a turn shows while it runs: progress statuses, then — once the model writes the answer — the
 * answer's text as it grows. Both go through one latest-wins throttle under the platform's budgets:
 * statuses at the status interval (a skipped one is dropped), text at the text interval (a skipped
 * one is retried; the first text goes out at once, ahead of later edits of other answers). Text the
 * surface sends without editing a message (a stream append, a new message) draws from the stream
 * budget, everything else from the edit budget.
 * Once text shows, statuses wait behind it; if the text is taken back ('' — the reply became a tool
 * call), the latest status shows again.
 */
import type { Location, ReplySurface, Status } from '../core/chat-platform.ts';
import { type RateBudget, throttleEdits } from './throttled-status.ts';

type Shown = { kind: 'status'; status: Status } | { kind: 'text'; text: string };

export interface StreamedAnswer {
  status(status: Status): void;
  /**
   * A status that must be seen (a file being read before the answer): shown at once, whatever the
   * interval, and retried if the budget turns it away — unless a newer status or text came meanwhile.
   */
  announce(status: Status): void;
  /** The answer's text so far (latest wins); '' takes it back. */
  write(textSoFar: string): void;
  /** The text written so far ('' when none). */
  text(): string;
  /** Drops what is pending and waits for the edit in flight. */
  settle(): Promise<void>;
}

export function streamAnswer(
  surface: ReplySurface,
  options: {
    statusIntervalMs: number;
    textIntervalMs: number;
    budget: RateBudget;
    /** For text the surface sends without editing a message (`surface.nextTextIsEdit === false`); default `budget`. */
    streamBudget?: RateBudget;
    yielding?: () => boolean;
    onError: (error: unknown) => void;
    /** The surface moved on to another message (the turn record follows it). */
    onMoved: (location: Location) => Promise<void>;
  },
): StreamedAnswer {
  let lastStatus: Status | undefined;
  let written = '';
  let recorded = JSON.stringify(surface.location);
  const textBudget = () => (surface.nextTextIsEdit === false && options.streamBudget) || options.budget;
  // Until the first text shows, later edits of other answers leave a token for it.
  let firstHold = surface.showText ? textBudget().holdForFirst() : undefined;
  const take = (shown: Shown) => {
    if (shown.kind === 'status') return options.budget.tryTake();
    const budget = textBudget();
    if (!firstHold) return budget.tryTake();
    if (!budget.tryTakeFirst()) return false;
    firstHold.release();
    firstHold = undefined;
    return true;
  };

  const send = async (shown: Shown) => {
    if (shown.kind === 'status') return surface.showStatus(shown.status);
    await surface.showText?.(shown.text);
    const location = JSON.stringify(surface.location);
    if (location !== recorded) {
      recorded = location;
      await options.onMoved(surface.location);
    }
  };
  const edits = throttleEdits<Shown>(send, {
    intervalMs: (shown) => (shown.kind === 'text' ? options.textIntervalMs : options.statusIntervalMs),
    budget: options.budget,
    take,
    onError: options.onError,
    ...(options.yielding ? { yielding: options.yielding } : {}),
  });

  return {
    status: (status) => {
      lastStatus = status;
      if (!written) edits.show({ kind: 'status', status });
    },
    announce: (status) => {
      lastStatus = status;
      if (!written) edits.show({ kind: 'status', status }, { urgent: true, keep: true });
    },
    write: (textSoFar) => {
      if (!surface.showText) return;
      const first = !written;
      written = textSoFar;
      if (textSoFar) edits.show({ kind: 'text', text: textSoFar }, { urgent: first, keep: true });
      else if (lastStatus) edits.show({ kind: 'status', status: lastStatus }, { keep: true });
    },
    text: () => written,
    settle: () => {
      firstHold?.release();
      firstHold = undefined;
      return edits.settle();
    },
  };
}

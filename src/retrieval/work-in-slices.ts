/**
 * Long work (building a snapshot segment, searching every segment) written as generators with one step per
 * slice, run either in slices that give the event loop its turn between them, or all at once.
 */

/** Passes control back to the event loop when a slice of work has run `sliceMs`. */
export type Pause = () => Promise<void> | undefined;

export function slicePause(sliceMs: number): Pause {
  let sliceStarted = performance.now();
  return () => {
    if (performance.now() - sliceStarted < sliceMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        sliceStarted = performance.now();
        resolve();
      }),
    );
  };
}

export const neverPause: Pause = () => undefined;

/** Runs the steps of a generator, passing control back to the event loop between two when `pause` asks. */
export async function runSteps<T>(steps: Generator<void, T>, pause: Pause): Promise<T> {
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    const waiting = pause();
    if (waiting) await waiting;
  }
}

/** Runs every step of a generator at once (nothing else runs meanwhile). */
export function runStepsNow<T>(steps: Generator<void, T>): T {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

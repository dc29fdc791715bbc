/**
 * An answer's plan as the surface shows it (`ReplySurface.showPlan`: task cards, where the platform
 * has them): built from the graph's progress — the rewrite's sub-questions (only when it split the
 * question in several: one step says nothing the status does not), each started, then done with the
 * documents it read. Every change is sent once and in order; a few per turn (at most three sub-questions), so each
 * is charged to the platform's budget rather than dropped like a status line: a plan that skipped a
 * step would show it running forever. When the turn ends without an answer, the unfinished steps
 * show as failed.
 */
import type { PlanStep, ReplySurface } from '../core/chat-platform.ts';
import type { ProgressEvent } from '../core/types.ts';
import type { RateBudget } from './throttled-status.ts';

export interface AnswerPlan {
  /** Takes one progress event (ignores those that do not change the plan). */
  progress(event: ProgressEvent): void;
  /** Waits for what was sent; when the turn did not answer, shows unfinished steps as failed first. */
  close(answered: boolean): Promise<void>;
}

export function trackAnswerPlan(
  surface: ReplySurface,
  options: { budget: RateBudget; onError: (error: unknown) => void },
): AnswerPlan {
  let steps: PlanStep[] = [];
  let sending: Promise<void> = Promise.resolve();
  let closed = false;
  const send = () => {
    if (!surface.showPlan || steps.length === 0) return;
    const snapshot = steps.map((step) => ({ ...step }));
    options.budget.charge();
    sending = sending.then(() => surface.showPlan?.(snapshot)).then(undefined, options.onError);
  };
  const update = (index: number, change: Partial<PlanStep>) => {
    const step = steps[index];
    if (!step || step.state === 'complete' || step.state === 'error') return;
    steps[index] = { ...step, ...change };
    send();
  };
  return {
    progress: (event) => {
      if (closed || !surface.showPlan) return;
      if (event.type === 'planned') {
        if (event.questions.length < 2 || steps.length > 0) return;
        steps = event.questions.map((title) => ({ title, state: 'pending', documents: [] }));
        send();
      } else if (event.type === 'sub-question-started') update(event.index, { state: 'in_progress' });
      else if (event.type === 'sub-question-done')
        update(event.index, { state: 'complete', documents: event.documents ?? [] });
    },
    close: async (answered) => {
      if (closed) return sending;
      closed = true;
      if (!answered && steps.some((step) => step.state !== 'complete')) {
        steps = steps.map((step) => (step.state === 'complete' ? step : { ...step, state: 'error' }));
        send();
      }
      await sending;
    },
  };
}

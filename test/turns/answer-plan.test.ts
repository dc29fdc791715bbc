/**
 * An answer's plan as the runner tells a surface (`showPlan`): built from the graph's progress events,
 * each change sent once and in order, charged to the budget, unfinished steps failed when the turn did
 * not answer. The surface is an in-test one that records what it was shown (and can be slow).
 */
import { describe, expect, it } from 'vitest';
import type { PlanStep, ReplySurface } from '../../src/core/chat-platform.ts';
import { trackAnswerPlan } from '../../src/turns/answer-plan.ts';
import { createRateBudget } from '../../src/turns/throttled-status.ts';

function recordingSurface(options: { delayMs?: number; showsPlans?: boolean } = {}) {
  const shown: PlanStep[][] = [];
  const surface: ReplySurface = {
    location: {},
    showStatus: async () => {},
    finish: async () => {},
    ...(options.showsPlans === false
      ? {}
      : {
          showPlan: async (steps: readonly PlanStep[]) => {
            await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
            shown.push(steps.map((step) => ({ ...step })));
          },
        }),
  };
  return { surface, shown };
}

const states = (steps: PlanStep[]) => steps.map((step) => step.state);

describe('the answer plan', () => {
  it('shows each sub-question pending, in progress, then done with the documents it read, in order', async () => {
    const { surface, shown } = recordingSurface({ delayMs: 5 });
    const budget = createRateBudget(60, 1);
    const plan = trackAnswerPlan(surface, { budget, onError: (error) => expect.fail(String(error)) });
    plan.progress({ type: 'rewriting' });
    plan.progress({ type: 'planned', questions: ['loops?', 'freeze?'] });
    plan.progress({ type: 'sub-question-started', index: 1, total: 2, question: 'freeze?' });
    plan.progress({ type: 'sub-question-started', index: 0, total: 2, question: 'loops?' });
    plan.progress({ type: 'searching', index: 0, query: 'loops' });
    plan.progress({
      type: 'sub-question-done',
      index: 0,
      total: 2,
      documents: [{ name: 'loops.pdf', link: 'https://example.slack.com/files/F1' }],
    });
    // A repeated event changes nothing and is not sent again.
    plan.progress({ type: 'sub-question-started', index: 0, total: 2, question: 'loops?' });
    plan.progress({ type: 'sub-question-done', index: 1, total: 2, documents: [] });
    await plan.close(true);
    expect(shown.map(states)).toEqual([
      ['pending', 'pending'],
      ['pending', 'in_progress'],
      ['in_progress', 'in_progress'],
      ['complete', 'in_progress'],
      ['complete', 'complete'],
    ]);
    expect(shown.at(-1)?.[0]).toEqual({
      title: 'loops?',
      state: 'complete',
      documents: [{ name: 'loops.pdf', link: 'https://example.slack.com/files/F1' }],
    });
    // Every change was charged, even past the budget (a plan that skipped one would look stuck).
    expect(budget.tryTakeFirst()).toBe(false);
  });

  it('shows nothing for a question that was not split', async () => {
    const { surface, shown } = recordingSurface();
    const plan = trackAnswerPlan(surface, { budget: createRateBudget(60, 20), onError: () => {} });
    plan.progress({ type: 'planned', questions: ['loops?'] });
    plan.progress({ type: 'sub-question-started', index: 0, total: 1, question: 'loops?' });
    plan.progress({ type: 'sub-question-done', index: 0, total: 1 });
    await plan.close(false);
    expect(shown).toEqual([]);
  });

  it('when the turn did not answer, the unfinished steps show as failed, and nothing follows the close', async () => {
    const { surface, shown } = recordingSurface();
    const plan = trackAnswerPlan(surface, { budget: createRateBudget(60, 20), onError: () => {} });
    plan.progress({ type: 'planned', questions: ['a?', 'b?', 'c?'] });
    plan.progress({ type: 'sub-question-started', index: 0, total: 3, question: 'a?' });
    plan.progress({ type: 'sub-question-done', index: 0, total: 3 });
    plan.progress({ type: 'sub-question-started', index: 1, total: 3, question: 'b?' });
    await plan.close(false);
    plan.progress({ type: 'sub-question-done', index: 1, total: 3 });
    expect(shown.at(-1)?.map((step) => step.state)).toEqual(['complete', 'error', 'error']);
    expect(shown).toHaveLength(5);
  });

  it('a surface that cannot show a plan is never asked, and a failing one is only reported', async () => {
    const { surface } = recordingSurface({ showsPlans: false });
    const plan = trackAnswerPlan(surface, { budget: createRateBudget(60, 20), onError: () => {} });
    plan.progress({ type: 'planned', questions: ['a?', 'b?'] });
    await plan.close(false);

    const errors: unknown[] = [];
    const failing: ReplySurface = {
      ...surface,
      showPlan: async () => {
        throw new Error('refused');
      },
    };
    const failingPlan = trackAnswerPlan(failing, {
      budget: createRateBudget(60, 20),
      onError: (error) => errors.push(error),
    });
    failingPlan.progress({ type: 'planned', questions: ['a?', 'b?'] });
    failingPlan.progress({ type: 'sub-question-started', index: 0, total: 2, question: 'a?' });
    await failingPlan.close(true);
    expect(errors).toHaveLength(2);
  });
});

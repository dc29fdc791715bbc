import { describe, expect, it } from 'vitest';
import { createPlatformBudgets } from '../../src/turns/platform-budgets.ts';

/** Takes tokens until the budget refuses; how many it gave. */
function drain(take: () => boolean): number {
  let taken = 0;
  while (take() && taken < 1_000) taken++;
  return taken;
}

describe('platform budgets', () => {
  const limits = { editBudget: { perMinute: 60, burst: 5 }, streamBudget: { perMinute: 60, burst: 3 } };
  const frozen = () => 0;

  it('gives each workspace its own budget where the platform counts per workspace', () => {
    const budgets = createPlatformBudgets({ ...limits, budgetPer: 'workspace' }, undefined, frozen);
    expect(drain(() => budgets.of('slack:T1:C1:1.0').budget.tryTakeFirst())).toBe(5);
    // Another thread of the same workspace draws from the same, spent bucket; a scope of it too.
    expect(budgets.of('slack:T1:C2:2.0').budget.tryTakeFirst()).toBe(false);
    expect(budgets.of('slack:T1').budget.tryTakeFirst()).toBe(false);
    // Another workspace is untouched by the first one's burst.
    expect(drain(() => budgets.of('slack:T2:C1:1.0').budget.tryTakeFirst())).toBe(5);
    expect(drain(() => budgets.of('slack:T3:C1:1.0').streamBudget!.tryTakeFirst())).toBe(3);
  });

  it('shares one budget among every server where the platform counts per bot', () => {
    const budgets = createPlatformBudgets({ ...limits, budgetPer: 'bot' }, undefined, frozen);
    expect(drain(() => budgets.of('discord:G1:100').budget.tryTakeFirst())).toBe(5);
    expect(budgets.of('discord:G2:200').budget.tryTakeFirst()).toBe(false);
  });

  it('takes this replica’s share of each workspace’s budget', () => {
    const budgets = createPlatformBudgets({ ...limits, budgetPer: 'workspace' }, () => 0.5, frozen);
    expect(drain(() => budgets.of('slack:T1:C1:1.0').budget.tryTakeFirst())).toBeLessThan(5);
    expect(drain(() => budgets.of('slack:T2:C1:1.0').budget.tryTakeFirst())).toBeGreaterThan(0);
  });
});

/**
 * A platform's rate budgets, counted where the platform counts them: once for the whole bot (Discord's
 * global limit), or once per workspace (Slack's limits are per workspace and app, so one busy workspace
 * must not use up another's). Each is this replica's share of the platform's budget.
 */
import type { ChatPlatform } from '../core/chat-platform.ts';
import { decodeId } from '../core/ids.ts';
import { createRateBudget, type RateBudget } from './throttled-status.ts';

export interface Budgets {
  /** Status and progress edits, and final replies (charged). */
  budget: RateBudget;
  /** Appends to native text streams, where the platform limits them apart from edits. */
  streamBudget?: RateBudget;
}

export interface PlatformBudgets {
  /** The budgets for the workspace of `id` (a thread id or a scope: its first part is the workspace). */
  of(id: string): Budgets;
}

/**
 * Budgets of workspaces not heard from lately are forgotten past this many: one taken again starts
 * full, as it would after a minute's pause — a bound on memory, not on the platform's limit.
 */
const maxWorkspaces = 1_000;

export function createPlatformBudgets(
  platform: Pick<ChatPlatform, 'editBudget' | 'streamBudget' | 'budgetPer'>,
  share: (() => number) | undefined,
  now: () => number = Date.now,
): PlatformBudgets {
  const create = (): Budgets => ({
    budget: createRateBudget(platform.editBudget.perMinute, platform.editBudget.burst, now, share),
    ...(platform.streamBudget
      ? {
          streamBudget: createRateBudget(
            platform.streamBudget.perMinute,
            platform.streamBudget.burst,
            now,
            share,
          ),
        }
      : {}),
  });
  if (platform.budgetPer !== 'workspace') {
    const whole = create();
    return { of: () => whole };
  }
  // In order of last use: the oldest is forgotten first.
  const byWorkspace = new Map<string, Budgets>();
  return {
    of: (id) => {
      const workspace = decodeId(id).parts[0] ?? '';
      const known = byWorkspace.get(workspace);
      if (known) {
        byWorkspace.delete(workspace);
        byWorkspace.set(workspace, known);
        return known;
      }
      const budgets = create();
      byWorkspace.set(workspace, budgets);
      if (byWorkspace.size > maxWorkspaces) byWorkspace.delete(byWorkspace.keys().next().value as string);
      return budgets;
    },
  };
}

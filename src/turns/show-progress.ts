/**
 * What a running answer shows while it works: status and progress as throttled, latest-wins edits
 * (the first text before later edits), streamed text, and the sub-questions as steps where the
 * surface shows them. A stop that gives up on the turn keeps what was written and says it was cut off.
 */
import type { ReplySurface } from '../core/chat-platform.ts';
import type { ProgressEvent } from '../core/types.ts';
import type { Logger } from '../logger.ts';
import { type AnswerPlan, trackAnswerPlan } from './answer-plan.ts';
import { cutOffText, describeProgress, shuttingDownText } from './messages-en.ts';
import {
  type AttachedPlatform,
  type RunnableAnswer,
  type RunnerContext,
  type RunningJob,
  tryStore,
} from './runner-context.ts';
import { type StreamedAnswer, streamAnswer } from './streamed-answer.ts';

export interface AnswerProgress {
  live: StreamedAnswer;
  plan: AnswerPlan;
  /** Shows one progress event: as a plan step and as the status line. */
  progress(event: ProgressEvent): void;
}

export function showProgress(
  context: RunnerContext,
  attached: AttachedPlatform,
  job: RunnableAnswer,
  running: RunningJob,
  surface: ReplySurface,
  log: Logger,
): AnswerProgress {
  const { platform } = attached;
  const live = streamAnswer(surface, {
    statusIntervalMs: platform.statusIntervalMs,
    textIntervalMs: platform.textIntervalMs ?? 1_000,
    budget: running.budgets.budget,
    ...(running.budgets.streamBudget ? { streamBudget: running.budgets.streamBudget } : {}),
    yielding: context.gate.busy,
    onError: (error) => log.warn({ err: error }, 'could not update the status'),
    onMoved: (location) => {
      if (running.recorded)
        return tryStore(log, 'move the turn', () => context.store.moveTurn(job.key, location)).then(() => {});
      return Promise.resolve();
    },
  });
  running.abandonReply = () => {
    const text = live.text();
    return text
      ? { kind: 'cut-off', text, notice: cutOffText(shuttingDownText), reference: job.reference }
      : { kind: 'shutting-down' };
  };
  const plan = trackAnswerPlan(surface, {
    budget: running.budgets.streamBudget ?? running.budgets.budget,
    onError: (error) => log.warn({ err: error }, 'could not show the plan'),
  });
  const progress = (event: ProgressEvent) => {
    plan.progress(event);
    const line = describeProgress(event);
    if (line) live.status({ kind: 'working', line });
  };
  return { live, plan, progress };
}

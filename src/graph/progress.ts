/** Progress leaves the graph through LangGraph's custom stream (`config.writer`, streamMode 'custom'). */
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ProgressEvent } from '../core/types.ts';

export function emitProgress(config: LangGraphRunnableConfig | undefined, event: ProgressEvent): void {
  config?.writer?.(event);
}

const progressTypes = new Set<string>([
  'queued',
  'summarizing',
  'rewriting',
  'clarifying',
  'planned',
  'sub-question-started',
  'searching',
  'reading',
  'compressing',
  'falling-back',
  'sub-question-done',
  'aggregating',
  'done',
]);

export function isProgressEvent(value: unknown): value is ProgressEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    progressTypes.has((value as { type: string }).type)
  );
}

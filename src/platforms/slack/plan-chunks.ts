/**
 * An answer's plan as Slack's streaming chunks: one `task_update` per sub-question (shown together
 * in `plan` display mode), with the documents it read as `sources` (those with an upload link: Slack's
 * source element is a link) and their names in its output. Every text is neutralised (a sub-question
 * is model text, a name comes from a document) and cut to a length Slack takes.
 */
import type { types } from '@slack/bolt';
import type { PlanStep } from '../../core/chat-platform.ts';
import { planTitle, stepReadText } from '../../turns/messages-en.ts';
import { neutralizeMentions } from './slack-text.ts';

type TaskUpdateChunk = Extract<types.AnyChunk, { type: 'task_update' }>;
type PlanChunk = types.AnyChunk;

/** Slack's task cards hold short texts; a longer one is cut with an ellipsis. */
const titleLength = 200;
const outputLength = 500;
/** A task card shows a handful of sources; more would only crowd it. */
const maxSources = 5;

export function taskId(index: number): string {
  return `ragent-step-${index + 1}`;
}

export function taskChunk(step: PlanStep, index: number): TaskUpdateChunk {
  const sources = step.documents
    .flatMap((document) =>
      document.link && /^https:\/\//.test(document.link)
        ? [{ type: 'url' as const, url: document.link, text: cut(neutralizeMentions(document.name), 150) }]
        : [],
    )
    .slice(0, maxSources);
  return {
    type: 'task_update',
    id: taskId(index),
    title: cut(neutralizeMentions(step.title.replace(/\s+/g, ' ').trim()), titleLength),
    status: step.state,
    ...(step.state === 'complete'
      ? {
          output: cut(
            neutralizeMentions(stepReadText(step.documents.map((document) => document.name))),
            outputLength,
          ),
        }
      : {}),
    ...(sources.length > 0 ? { sources } : {}),
  };
}

/**
 * The chunks that bring what Slack shows (`shown`: each task's chunk as last sent, by id) up to
 * `steps`: the plan's title first when nothing was shown, then each task that changed.
 */
export function planChunks(steps: readonly PlanStep[], shown: ReadonlyMap<string, string>): PlanChunk[] {
  const chunks: PlanChunk[] =
    shown.size === 0 ? [{ type: 'plan_update', title: planTitle(steps.length) }] : [];
  for (const [index, step] of steps.entries()) {
    const chunk = taskChunk(step, index);
    if (shown.get(chunk.id) !== JSON.stringify(chunk)) chunks.push(chunk);
  }
  return chunks;
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

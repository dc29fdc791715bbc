/**
 * The prompts offered where a conversation starts, once for every platform that offers them: those
 * configured, else one per document the thread can search, newest first — names shown literally (no
 * pings, no line breaks, bounded). They come from the sets the thread searches, never from what the
 * person is viewing: a prompt must not promise documents its answer cannot read.
 */
import type { DocumentRecord } from '../core/types.ts';
import { suggestedPromptMessage, suggestedPromptTitle } from './messages-en.ts';

export interface SuggestedPrompt {
  title: string;
  message: string;
}

export interface PromptLimits {
  /** How many the platform shows. */
  count: number;
  /** A title is shown on a button: a longer one is cut. */
  titleLength: number;
  /** The platform's way to make a text inert (its mentions neutralised). */
  inert(text: string): string;
}

export async function suggestedPrompts(
  configured: readonly string[],
  documents: () => Promise<readonly DocumentRecord[]>,
  limits: PromptLimits,
): Promise<SuggestedPrompt[]> {
  const { inert, titleLength } = limits;
  if (configured.length > 0) {
    return configured
      .slice(0, limits.count)
      .map((prompt) => ({ title: cut(inert(prompt), titleLength), message: inert(prompt) }));
  }
  const newestFirst = [...(await documents())].sort((a, b) => b.ingestedAt.localeCompare(a.ingestedAt));
  const names = new Set(
    newestFirst.map((document) => cut(inert(document.name.replace(/\s+/g, ' ').trim()), 120)),
  );
  return [...names].slice(0, limits.count).map((name) => ({
    title: cut(suggestedPromptTitle(name), titleLength),
    message: suggestedPromptMessage(name),
  }));
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
